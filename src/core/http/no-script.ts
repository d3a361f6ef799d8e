import type { MiddlewareHandler } from 'hono'

/**
 * The policy of every answer but the QA panel's own files: a document made of it is sandboxed (an
 * opaque origin: no script runs, no storage or cookie of the mock's origin is readable, no form
 * is sent) and loads nothing. A fault rule's or the proxied deployment's `text/html` (QA's
 * nginx-style 502) is still shown as a page, its scripts are not run.
 */
export const noScriptPolicy = "sandbox; default-src 'none'"

/** The headers every answer but the panel's files carries (lower-case names): the policy, and no MIME sniffing. */
export const noScriptHeaders: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': noScriptPolicy,
  'x-content-type-options': 'nosniff',
})

/**
 * `headers` (lower-case names) with {@link noScriptHeaders}, which win over a rule's own
 * `Content-Security-Policy` or `X-Content-Type-Options`; `headers` itself when it has them already
 * (the constant objects of respond.ts: no copy on the hot path).
 */
export const withNoScript = (headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> =>
  headers['content-security-policy'] === noScriptPolicy && headers['x-content-type-options'] === 'nosniff'
    ? headers
    : { ...headers, ...noScriptHeaders }

/**
 * {@link noScriptHeaders} on an answer built elsewhere (hono's `c.json`, a preflight, a
 * proxied answer's copy): set unless it has a policy of its own, which only the panel's files
 * have (served/panel-routes.ts); `nosniff` always.
 */
export const addNoScript = (res: Response): Response => {
  const { headers } = res
  if (!headers.has('content-security-policy')) headers.set('content-security-policy', noScriptPolicy)
  headers.set('x-content-type-options', 'nosniff')
  return res
}

/**
 * The control plane's answers (the admin host's, the probes', the guard's, the redirect to the
 * panel): {@link addNoScript} on each, once built. Not on /v1's, which respond.ts builds with them.
 */
export const noScriptAnswers: MiddlewareHandler = async (c, next) => {
  await next()
  addNoScript(c.res)
}
