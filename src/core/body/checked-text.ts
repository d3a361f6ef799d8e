import { ApiError, badRequest } from '../http/errors.js'
import { bodyIsAbsent, readBodyText } from './read-body.js'
import type { Transport } from '../http/transport.js'
import type { RequestContext } from '../http/stage.js'

/** What a body stage reads, and how it words a missing body and one of another type. */
export interface BodyRules {
  maxBytes: number
  transport: Transport
  /** The 415's message, for a body of another type. */
  unsupported: string
  /** The 400's message, for no body or a blank one. */
  missing: string
}

/**
 * The request body's text, through the steps every body takes: 400 `missing`
 * when there is none, whatever its Content-Type (no body is a missing body,
 * not one of the wrong type), else 415 unless `accepted` (its Content-Type
 * is one the stage reads); 413 beyond
 * `maxBytes` (checked before parsing, with or without Content-Length); 400
 * when not UTF-8; 400 `missing` when blank. The text as read goes to
 * `c.var.bodyText`, for the journal.
 */
export const checkedBodyText = async (c: RequestContext, rules: BodyRules, accepted: boolean): Promise<string> => {
  const { maxBytes } = rules
  const read = (max: number) => rules.transport.readBody(c, max)
  const declaredLength = c.req.header('Content-Length')
  if (!accepted) {
    if (await bodyIsAbsent(read, declaredLength)) {
      c.set('bodyText', '')
      throw badRequest(rules.missing)
    }
    throw new ApiError(415, rules.unsupported)
  }
  const text = await readBodyText(read, declaredLength, maxBytes)
  if (text === 'too_large') throw new ApiError(413, `Request body is larger than the limit of ${maxBytes} bytes.`)
  if (text === 'not_utf8') throw badRequest('Request body is not valid UTF-8.')
  c.set('bodyText', text)
  if (text.trim() === '') throw badRequest(rules.missing)
  return text
}
