import { errorBodyOf, MockAdminError } from './mock-admin-error.js'

/** The `fetch` a client sends with; the platform's by default. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

/** Where and as whom admin requests go. */
export interface AdminTarget {
  /** The mock's base URL without a trailing slash. */
  baseUrl: string
  adminToken?: string | undefined
  session?: string | undefined
  fetch: FetchLike
}

/** One request to a route under /__admin. */
export interface AdminRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** The path after /__admin, starting with a slash. */
  path: string
  query?: Record<string, string | number | undefined>
  /** A JSON value, or text with its content type. */
  json?: unknown
  text?: { contentType: string; body: string }
  accept?: string
  signal?: AbortSignal | undefined
}

const isAbort = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')

const urlOf = (target: AdminTarget, request: AdminRequest): string => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) params.set(name, String(value))
  }
  const search = params.toString()
  return `${target.baseUrl}/__admin${request.path}${search && `?${search}`}`
}

const headersOf = (target: AdminTarget, request: AdminRequest): Record<string, string> => {
  const headers: Record<string, string> = { Accept: request.accept ?? 'application/json' }
  if (target.adminToken !== undefined) headers['Authorization'] = `Bearer ${target.adminToken}`
  if (target.session !== undefined) headers['X-Mock-Session'] = target.session
  if (request.json !== undefined) headers['Content-Type'] = 'application/json'
  if (request.text !== undefined) headers['Content-Type'] = request.text.contentType
  return headers
}

/**
 * Sends an admin request and resolves with a successful answer; an error
 * answer throws {@link MockAdminError}, an unreachable mock an `Error` naming
 * the URL (an abort is passed through as it is).
 */
export const sendAdmin = async (target: AdminTarget, request: AdminRequest): Promise<Response> => {
  const url = urlOf(target, request)
  const init: RequestInit = { method: request.method, headers: headersOf(target, request) }
  if (request.json !== undefined) init.body = JSON.stringify(request.json)
  if (request.text !== undefined) init.body = request.text.body
  if (request.signal) init.signal = request.signal
  let response: Response
  try {
    response = await target.fetch(url, init)
  } catch (error) {
    // Aborted by its signal: fetch rejects with the signal's reason, whatever it is (an Error of the caller's).
    if (isAbort(error) || request.signal?.aborted) throw error
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`petstore-mock did not answer ${request.method} ${url}: ${reason}`, { cause: error })
  }
  if (response.ok) return response
  throw new MockAdminError(request.method, url, errorBodyOf(response.status, await response.text()))
}

/** Sends an admin request and parses its JSON answer. */
export const adminJson = async <T>(target: AdminTarget, request: AdminRequest): Promise<T> => {
  const response = await sendAdmin(target, request)
  const text = await response.text()
  try {
    return JSON.parse(text) as T
  } catch {
    throw new MockAdminError(request.method, urlOf(target, request), errorBodyOf(response.status, text))
  }
}

/** Sends an admin request and resolves with its answer's text. */
export const adminText = async (target: AdminTarget, request: AdminRequest): Promise<string> =>
  (await sendAdmin(target, request)).text()

/** Sends an admin request whose answer has no body (204). */
export const adminVoid = async (target: AdminTarget, request: AdminRequest): Promise<void> => {
  const response = await sendAdmin(target, request)
  await response.body?.cancel()
}
