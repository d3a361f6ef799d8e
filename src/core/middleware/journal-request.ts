import type { Context, MiddlewareHandler } from 'hono'
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

/** The answer `c.json` built, with its text: what the journal keeps, without reading the Response. */
interface SentJson {
  res: Response
  text: string
}

/**
 * Makes `c.json` keep the text it serialises. Reading a Response's body means
 * cloning or consuming its stream, and on @hono/node-server it turns a
 * string-bodied answer into a streamed one: the text is taken where it is made.
 */
const captureJson = (c: Context): { sent?: SentJson } => {
  const capture: { sent?: SentJson } = {}
  const body = c.body as (...args: unknown[]) => Response
  c.json = ((object: unknown, arg?: unknown, headers?: Record<string, string>) => {
    const text = JSON.stringify(object)
    // Exactly what hono's own c.json does with the text.
    const res = body(text, arg, { 'Content-Type': 'application/json', ...headers })
    capture.sent = { res, text }
    return res
  }) as Context['json']
  return capture
}

const responseOf = async (c: Context, sent: SentJson | undefined): Promise<RecordedResponse> => {
  const res = c.res
  const headers: string[] = []
  res.headers.forEach((value, name) => headers.push(name, value))
  const recorded: RecordedResponse = { status: res.status, headers }
  if (c.req.method === 'HEAD') return recorded
  // Still the answer c.json built (a fault may have replaced it, e.g. malformed_body): its text is known.
  if (sent !== undefined && sent.res === res) {
    recorded.body = keepBody(sent.text, true)
    return recorded
  }
  const text = await res.clone().text()
  if (text !== '') recorded.body = keepBody(text, isJson(res.headers.get('content-type')) && isJsonText(text))
  return recorded
}

/** Records every request in its session's journal once it is answered: request, answer and shaping. */
export const journalRequest = (transport: Transport): MiddlewareHandler<AppEnv> =>
  async function journalRequest(c, next) {
    const start = performance.now()
    const shapedBy: Shaping[] = []
    c.set('shaping', shapedBy)
    const capture = captureJson(c)
    let reset = false
    try {
      await next()
    } catch (error) {
      reset = true
      throw error
    } finally {
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
        durationMs: Math.round((performance.now() - start) * 100) / 100,
        headers,
      }
      const bodyText = c.get('bodyText')
      if (bodyText !== undefined) record.body = keepBody(bodyText, c.get('body') !== undefined)
      if (!reset) record.response = await responseOf(c, capture.sent)
      if (shapedBy.length > 0) record.shapedBy = shapedBy
      c.get('session').journal.record(record)
    }
  }
