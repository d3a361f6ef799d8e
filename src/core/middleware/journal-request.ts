import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { type JournalRecord, keepBody, type RecordedResponse, redactAuthorization, type Shaping } from '../journal.js'
import type { Transport } from '../transport.js'

const isJson = (contentType: string | null | undefined): boolean =>
  contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json'

const isJsonText = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

const responseOf = async (c: Context<AppEnv>): Promise<RecordedResponse> => {
  const res = c.res
  const built = c.get('answer')
  // Still the answer respond.ts built (a fault may have replaced it, e.g. malformed_body): its parts are
  // known, and reading them from the Response would turn its plain headers into a web Headers.
  if (built !== undefined && built.res === res) {
    const recorded: RecordedResponse = { status: res.status, headers: built.headers }
    if (c.req.method !== 'HEAD' && built.text !== null && built.text !== '') {
      recorded.body = keepBody(built.text, isJson(built.headers['content-type']))
    }
    return recorded
  }
  const headers: string[] = []
  res.headers.forEach((value, name) => headers.push(name, value))
  const recorded: RecordedResponse = { status: res.status, headers }
  if (c.req.method === 'HEAD') return recorded
  const text = await res.clone().text()
  if (text !== '') recorded.body = keepBody(text, isJson(res.headers.get('content-type')) && isJsonText(text))
  return recorded
}

/** A request being journaled: what {@link openRecord} set up for {@link closeRecord}. */
export interface OpenRecord {
  start: number
  shapedBy: Shaping[]
}

/** Starts journaling a request: its clock, and where the controls note how they shaped it. */
export const openRecord = (c: Context<AppEnv>): OpenRecord => {
  const shapedBy: Shaping[] = []
  c.set('shaping', shapedBy)
  return { start: performance.now(), shapedBy }
}

/** Records the answered request in its session's journal: request, answer (unless `reset`) and shaping. */
export const closeRecord = async (
  c: Context<AppEnv>,
  open: OpenRecord,
  reset: boolean,
  transport: Transport,
): Promise<void> => {
  const { shapedBy } = open
  reset ||= shapedBy.some((s) => s.by === 'fault' && s.fault === 'connection_reset')
  const headers = transport.requestHeaders(c)
  // A fresh list per request: redacted in place.
  for (let i = 0; i + 1 < headers.length; i += 2) {
    if (headers[i]!.toLowerCase() === 'authorization') headers[i + 1] = redactAuthorization(headers[i + 1]!)
  }
  const record: Omit<JournalRecord, 'id'> = {
    time: new Date().toISOString(),
    method: c.req.method,
    url: c.req.url,
    path: c.req.path,
    operation: c.get('operation')?.id ?? null,
    status: reset ? 0 : c.res.status,
    durationMs: Math.round((performance.now() - open.start) * 100) / 100,
    headers,
  }
  const bodyText = c.get('bodyText')
  if (bodyText !== undefined) record.body = keepBody(bodyText, c.get('body') !== undefined)
  if (!reset) record.response = await responseOf(c)
  if (shapedBy.length > 0) record.shapedBy = shapedBy
  c.get('session').journal.record(record)
}
