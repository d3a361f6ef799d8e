import type { Context } from 'hono'
import { isJsonType, parseJsonExact } from '../http/json.js'
import type { Transport } from '../http/transport.js'
import type { BodyBytes } from '../http/transport.js'

// A body read ahead of its stage, by request: the stage that reads it later gets the same bytes
// (a request's body can be read once). Kept apart from the context's variables: only requests that
// met a rule on the body are in it.
const peeked = new WeakMap<Context, Promise<BodyBytes | null>>()

/**
 * `transport`, whose `readBody` answers a body already read ahead (by
 * {@link peekJsonBody}) with the bytes read then, its refusal included: the
 * body stage, the proxy and anything else that reads a body see what they
 * would have read. One lookup per body read.
 */
export const withPeekedBodies = (transport: Transport): Transport => ({
  readBody: (c, maxBytes) => peeked.get(c) ?? transport.readBody(c, maxBytes),
  resetConnection: (c) => transport.resetConnection(c),
  requestHeaders: (c) => transport.requestHeaders(c),
  clientAddress: (c) => transport.clientAddress?.(c),
  answerHeader: (c, name, value) => transport.answerHeader?.(c, name, value) ?? false,
})

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The JSON request body, read ahead of the body stage (which comes after
 * authentication) for fault rules that match on its fields: its text and, when
 * it parses, its value; undefined when there is none, it is not UTF-8 sent as
 * JSON, or it is beyond `maxBytes`. Refuses nothing: the body stage still
 * answers each of those cases as it always does, from the same bytes (see
 * {@link withPeekedBodies}, which `transport` must be).
 */
export const peekJsonBody = async (
  c: Context,
  transport: Transport,
  maxBytes: number,
): Promise<{ text: string; value?: unknown } | undefined> => {
  if (!isJsonType(c.req.header('Content-Type'))) return undefined
  const declared = c.req.header('Content-Length')
  if (declared !== undefined && Number(declared) > maxBytes) return undefined
  let read = peeked.get(c)
  if (read === undefined) {
    read = transport.readBody(c, maxBytes)
    peeked.set(c, read)
  }
  let bytes: BodyBytes | null
  try {
    bytes = await read
  } catch {
    return undefined
  }
  if (bytes === null || bytes === 'too_large') return undefined
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return undefined
  }
  const parsed = parseJsonExact(text)
  return parsed.ok ? { text, value: parsed.value } : { text }
}
