import type { BodyBytes } from '../http/transport.js'

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's body, parsed (JSON, or YAML or JSON for data), once a body stage read it. */
    body: unknown
    /** Its text, as read (for the journal). */
    bodyText: string | undefined
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Why a body could not be read. */
export type BodyRefusal = 'too_large' | 'not_utf8'

/**
 * A request body as UTF-8 text, refused as soon as it exceeds `maxBytes`: at
 * once when Content-Length says so, else while it is read (chunked). `read`
 * is the host's reader (see transport.ts).
 */
export const readBodyText = async (
  read: (maxBytes: number) => Promise<BodyBytes | null>,
  declaredLength: string | undefined,
  maxBytes: number,
): Promise<string | BodyRefusal> => {
  if (declaredLength !== undefined && Number(declaredLength) > maxBytes) return 'too_large'
  const bytes = await read(maxBytes)
  if (bytes === null) return ''
  if (bytes === 'too_large') return bytes
  try {
    return utf8.decode(bytes)
  } catch {
    return 'not_utf8'
  }
}

/**
 * Whether a request carries no body (none, or zero bytes), asked before its
 * media type: a missing body is a 400 whatever the Content-Type says. Reads
 * at most one chunk: any byte answers no.
 */
export const bodyIsAbsent = async (
  read: (maxBytes: number) => Promise<BodyBytes | null>,
  declaredLength: string | undefined,
): Promise<boolean> => {
  if (declaredLength !== undefined && Number(declaredLength) > 0) return false
  const bytes = await read(0)
  return bytes === null || (bytes !== 'too_large' && bytes.byteLength === 0)
}
