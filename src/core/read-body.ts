/** Why a body could not be read. */
export type BodyRefusal = 'too_large' | 'not_utf8'

const utf8 = new TextDecoder('utf-8', { fatal: true })

const concat = (chunks: readonly Uint8Array[], size: number): Uint8Array => {
  const whole = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    whole.set(chunk, offset)
    offset += chunk.byteLength
  }
  return whole
}

/**
 * Reads a request body as UTF-8 text, refusing it as soon as it exceeds
 * `maxBytes`: at once when Content-Length says so, else while reading
 * (chunked). Works on Node's IncomingMessage and on a web ReadableStream.
 */
export const readBodyText = async (
  source: AsyncIterable<Uint8Array> | null | undefined,
  declaredLength: string | undefined,
  maxBytes: number,
): Promise<string | BodyRefusal> => {
  if (declaredLength !== undefined && Number(declaredLength) > maxBytes) return 'too_large'
  if (!source) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of source) {
    size += chunk.byteLength
    if (size > maxBytes) return 'too_large'
    chunks.push(chunk)
  }
  try {
    return utf8.decode(chunks.length === 1 ? chunks[0] : concat(chunks, size))
  } catch {
    return 'not_utf8'
  }
}
