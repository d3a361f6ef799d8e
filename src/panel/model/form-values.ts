/** The rule form's fields as typed; empty means "not set". */
export interface RuleFields {
  operation: string
  status: string
  fault: string
  delayMs: string
  times: string
  probability: string
  petId: string
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
  return body
}
