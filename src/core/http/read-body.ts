declare module 'hono' {
  interface ContextVariableMap {
    /** The request's body, parsed (JSON, or YAML or JSON for data), once a body stage read it. */
    body: unknown
    /** Its text, as read (for the journal). */
    bodyText: string | undefined
  }
}

/** Why a body could not be read. */
export type BodyRefusal = 'too_large' | 'not_utf8'

/** A whole body's bytes, or `too_large` once they exceed the limit. */
export type BodyBytes = Uint8Array | 'too_large'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The chunks as one array. */
export const concatChunks = (chunks: readonly Uint8Array[], size: number): Uint8Array => {
  if (chunks.length === 1) return chunks[0]!
  const whole = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    whole.set(chunk, offset)
    offset += chunk.byteLength
  }
  return whole
}

/** Reads a web ReadableStream whole, stopping as soon as it exceeds `maxBytes`. */
export const readStream = async (stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<BodyBytes> => {
  // Safari's ReadableStream is not async-iterable: read it through a reader.
  const reader = stream.getReader()
  try {
    const chunks: Uint8Array[] = []
    let size = 0
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength
      if (size > maxBytes) return 'too_large'
      chunks.push(read.value)
    }
    return concatChunks(chunks, size)
  } finally {
    reader.releaseLock()
  }
}

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
