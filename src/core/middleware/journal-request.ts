import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.js'
import { type JournalEntry, maxBodyChars, redactAuthorization } from '../journal.js'

const queryOf = (c: Context): JournalEntry['query'] =>
  Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0]! : v]))

// The body as jsonBody parsed it (not parsed again), or its text when it was not JSON.
const bodyOf = (text: string | undefined, parsed: unknown): Pick<JournalEntry, 'body' | 'bodyTruncated'> => {
  if (text === undefined) return {}
  if (text.length > maxBodyChars) return { body: text.slice(0, maxBodyChars), bodyTruncated: true }
  return { body: parsed === undefined ? text : parsed }
}

/** Records every request in its session's journal once it is answered. */
export const journalRequest = (): MiddlewareHandler<AppEnv> =>
  async function journalRequest(c, next) {
    const start = performance.now()
    c.set('shaping', [])
    try {
      await next()
    } finally {
      const authorization = c.req.header('Authorization')
      const shapedBy = c.get('shaping')
      c.var.session.journal.record({
        time: new Date().toISOString(),
        method: c.req.method,
        path: c.req.path,
        query: queryOf(c),
        operation: c.get('operation')?.id ?? null,
        status: shapedBy.some((s) => s.by === 'fault' && s.fault === 'connection_reset') ? 0 : c.res.status,
        durationMs: Math.round((performance.now() - start) * 100) / 100,
        ...(authorization !== undefined ? { authorization: redactAuthorization(authorization) } : {}),
        ...bodyOf(c.get('bodyText'), c.get('body')),
        ...(shapedBy.length > 0 ? { shapedBy } : {}),
      })
    }
  }
