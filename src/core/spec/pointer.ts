/** Escapes one JSON pointer segment (RFC 6901). */
export const pointerSegment = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1')
