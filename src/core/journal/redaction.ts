import { redactAuthorization } from '../http/request/authorization.js'

/**
 * Request and answer headers whose values the journal (and so the event stream and the HAR) never
 * keeps: credentials a client or a deployment sends. Lower-case. `Authorization` and
 * `Proxy-Authorization` keep their scheme and a hint of the token (a client can tell which key it
 * sent); the others are replaced by {@link redactedValue}.
 */
export const redactedHeaders: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'x-admin-token',
  'x-auth-token',
  'x-access-token',
  'x-csrf-token',
  'x-xsrf-token',
  'x-amz-security-token',
]

/** Query parameters whose values the journal never keeps (names compared without case). */
export const redactedQueryParameters: readonly string[] = [
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'api_key',
  'apikey',
  'api-key',
  'key',
  'password',
  'passwd',
  'pwd',
  'secret',
  'client_secret',
  'auth',
  'sig',
  'signature',
  'x-amz-signature',
  'x-amz-security-token',
]

/** What a redacted value reads as (in a URL, percent-encoded). */
export const redactedValue = '[redacted]'

const inUrl = encodeURIComponent(redactedValue)

/** What the journal redacts: header names and query parameter names, lower-case. */
export interface Redaction {
  headers: ReadonlySet<string>
  query: ReadonlySet<string>
}

/**
 * The defaults, with `extra` names (the `redact` option, `--redact`) added to both lists: a name a
 * team uses for a secret, as a header or a query parameter alike.
 */
export const redactionOf = (extra: readonly string[] = []): Redaction => {
  const added = extra.map((name) => name.trim().toLowerCase()).filter((name) => name !== '')
  return {
    headers: new Set([...redactedHeaders, ...added]),
    query: new Set([...redactedQueryParameters, ...added]),
  }
}

const valueOf = (name: string, value: string): string =>
  name === 'authorization' || name === 'proxy-authorization' ? redactAuthorization(value) : redactedValue

/** A flat header list (`[name, value, …]`, any case) with the redacted names' values replaced, in place. */
export const redactHeaderList = (headers: string[], redaction: Redaction): string[] => {
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = headers[i]!.toLowerCase()
    if (redaction.headers.has(name)) headers[i + 1] = valueOf(name, headers[i + 1]!)
  }
  return headers
}

/** A header object (lower-case names) with the redacted names' values replaced: `headers` itself when it has none. */
export const redactHeaderRecord = (
  headers: Readonly<Record<string, string>>,
  redaction: Redaction,
): Readonly<Record<string, string>> => {
  let copy: Record<string, string> | undefined
  for (const name in headers) {
    if (redaction.headers.has(name)) (copy ??= { ...headers })[name] = valueOf(name, headers[name]!)
  }
  return copy ?? headers
}

const decodedName = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase()
  } catch {
    return raw.toLowerCase()
  }
}

/**
 * A URL (or path with a query) with the values of the redacted query parameters replaced, the rest
 * as it was sent: `url` itself when none is there. A name is compared decoded and without case
 * (`?Token=`, `?%74oken=`); a repeated one is redacted each time.
 */
export const redactUrl = (url: string, redaction: Redaction): string => {
  const start = url.indexOf('?')
  if (start === -1) return url
  const end = url.indexOf('#', start)
  const query = url.slice(start + 1, end === -1 ? undefined : end)
  let changed = false
  const parts = query.split('&').map((part) => {
    const equals = part.indexOf('=')
    const name = equals === -1 ? part : part.slice(0, equals)
    if (!redaction.query.has(decodedName(name))) return part
    changed = true
    return `${name}=${inUrl}`
  })
  if (!changed) return url
  return `${url.slice(0, start + 1)}${parts.join('&')}${end === -1 ? '' : url.slice(end)}`
}
