/** The rule form's fields as typed; empty means "not set". */
export interface RuleFields {
  operation: string
  status: string
  fault: string
  delayMs: string
  times: string
  probability: string
  petId: string
  /** The rule's own answer: headers, one `Name: value` a line. */
  answerHeaders: string
  /** Its body, as typed. */
  answerBody: string
  /** `text`: the body is sent as a string (its text, byte for byte); `json`: as the JSON it is. */
  bodyKind: 'text' | 'json'
  breaksContract: boolean
  /** Target one client: an API key, or a fingerprint (by `keyKind`). */
  apiKey: string
  keyKind: 'key' | 'fingerprint'
  /** Request headers, one `Name: value` a line. */
  whenHeaders: string
  /** Query parameters, one `name=value` a line. */
  whenQuery: string
  /** Body fields, one `name: value` a line (a number, true, false, null or "quoted" as JSON; else text). */
  whenBody: string
}

/** An empty rule form. */
export const emptyRuleFields: RuleFields = {
  operation: '',
  status: '',
  fault: '',
  delayMs: '',
  times: '',
  probability: '',
  petId: '',
  answerHeaders: '',
  answerBody: '',
  bodyKind: 'text',
  breaksContract: false,
  apiKey: '',
  keyKind: 'key',
  whenHeaders: '',
  whenQuery: '',
  whenBody: '',
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/

/**
 * A typed number as JSON: a number when it reads as one exactly, else the
 * text as typed, so that the server refuses it in its own words (never
 * silently dropped or rounded here). Empty is absent.
 */
export const numberField = (text: string): number | string | undefined => {
  const trimmed = text.trim()
  if (trimmed === '') return undefined
  if (!NUMBER.test(trimmed)) return trimmed
  const value = Number(trimmed)
  // An integer JavaScript cannot hold exactly would be rounded: let the server refuse it instead.
  return /^-?\d+$/.test(trimmed) && !Number.isSafeInteger(value) ? trimmed : value
}

/**
 * `Name: value` (or `name=value`) lines as an object: each line that is not
 * blank is kept, split at its first separator (a line without one is all
 * name), so that the server judges every one of them in its own words.
 */
export const pairLines = (text: string, separator: ':' | '='): Record<string, string> | undefined => {
  const pairs: Record<string, string> = {}
  let any = false
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue
    const at = line.indexOf(separator)
    const name = (at === -1 ? line : line.slice(0, at)).trim()
    pairs[name] = at === -1 ? '' : line.slice(at + 1).trim()
    any = true
  }
  return any ? pairs : undefined
}

/** A typed body-field value: a JSON number (exactly), true, false, null or a "quoted" string as JSON; anything else as text. */
export const bodyValue = (text: string): unknown => {
  if (text === 'true' || text === 'false' || text === 'null') return JSON.parse(text)
  if (/^".*"$/.test(text)) {
    try {
      return JSON.parse(text) as unknown
    } catch {
      return text
    }
  }
  const number = numberField(text)
  return typeof number === 'number' ? number : text
}

/** The JSON body of POST /__admin/faults for the form as filled in: set fields only. */
export const ruleBody = (fields: RuleFields): Record<string, unknown> => {
  const body: Record<string, unknown> = {}
  if (fields.operation !== '') body['operation'] = fields.operation
  if (fields.fault !== '') body['fault'] = fields.fault
  const numbers = ['status', 'delayMs', 'times', 'probability', 'petId'] as const
  for (const name of numbers) {
    const value = numberField(fields[name])
    if (value !== undefined) body[name] = value
  }
  const headers = pairLines(fields.answerHeaders, ':')
  if (headers) body['headers'] = headers
  if (fields.bodyKind === 'text' && fields.answerBody !== '') body['body'] = fields.answerBody
  if (fields.breaksContract) body['breaksContract'] = true
  const when: Record<string, unknown> = {}
  const key = fields.apiKey.trim()
  if (key !== '') when['apiKey'] = fields.keyKind === 'fingerprint' ? { fingerprint: key } : key
  const whenHeaders = pairLines(fields.whenHeaders, ':')
  if (whenHeaders) when['headers'] = whenHeaders
  const query = pairLines(fields.whenQuery, '=')
  if (query) when['query'] = query
  const bodyFields = pairLines(fields.whenBody, ':')
  if (bodyFields) {
    when['body'] = Object.fromEntries(Object.entries(bodyFields).map(([name, value]) => [name, bodyValue(value)]))
  }
  if (Object.keys(when).length > 0) body['when'] = when
  return body
}

/**
 * The request text of POST /__admin/faults: {@link ruleBody}, and a JSON
 * answer body spliced in as typed (never parsed and written again here, so
 * that no digit is rounded: the server reads it, and refuses it in its words).
 */
export const ruleRequest = (fields: RuleFields): string => {
  const json = JSON.stringify(ruleBody(fields))
  if (fields.bodyKind !== 'json' || fields.answerBody.trim() === '') return json
  return `${json.slice(0, -1)}${json === '{}' ? '' : ','}"body":${fields.answerBody}}`
}
