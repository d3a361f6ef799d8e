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

const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]*)"?/i

/**
 * The 415 for a body of an accepted type that this mock would misread: one
 * with a content coding (gzip: it reads bytes as sent), or in a charset other
 * than UTF-8 (UTF-16 read as UTF-8 is "not valid JSON"). Undefined when it
 * can be read.
 */
const unreadable = (c: RequestContext): ApiError | undefined => {
  const encoding = c.req.header('Content-Encoding')?.trim()
  if (encoding && encoding.toLowerCase() !== 'identity') {
    return new ApiError(
      415,
      `Content-Encoding ${JSON.stringify(encoding)} is not supported; send the body unencoded (no Content-Encoding, or identity).`,
      { headers: { 'Accept-Encoding': 'identity' } },
    )
  }
  const charset = charsetParameter.exec(c.req.header('Content-Type') ?? '')?.[1]
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    return new ApiError(
      415,
      `charset=${JSON.stringify(charset)} is not supported; send the body in UTF-8 (charset=utf-8, or no charset).`,
    )
  }
  return undefined
}

/**
 * The request body's text, through the steps every body takes: 400 `missing`
 * when there is none, whatever its Content-Type (no body is a missing body,
 * not one of the wrong type), else 415 unless `accepted` (its Content-Type
 * is one the stage reads) and it is UTF-8 with no content coding; 413 beyond
 * `maxBytes` (checked before parsing, with or without Content-Length); 400
 * when not UTF-8; 400 `missing` when blank. The text as read goes to
 * `c.var.bodyText`, for the journal.
 */
export const checkedBodyText = async (c: RequestContext, rules: BodyRules, accepted: boolean): Promise<string> => {
  const { maxBytes } = rules
  const read = (max: number) => rules.transport.readBody(c, max)
  const declaredLength = c.req.header('Content-Length')
  const refused = accepted ? unreadable(c) : new ApiError(415, rules.unsupported)
  if (refused !== undefined) {
    if (await bodyIsAbsent(read, declaredLength)) {
      c.set('bodyText', '')
      throw badRequest(rules.missing)
    }
    throw refused
  }
  const text = await readBodyText(read, declaredLength, maxBytes)
  if (text === 'too_large') throw new ApiError(413, `Request body is larger than the limit of ${maxBytes} bytes.`)
  if (text === 'not_utf8') throw badRequest('Request body is not valid UTF-8.')
  c.set('bodyText', text)
  if (text.trim() === '') throw badRequest(rules.missing)
  return text
}
