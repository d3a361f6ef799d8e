import { type AdminRequest, type AdminTarget, type FetchLike, sendAdmin } from '../../client/admin-http.js'
import { MockAdminError } from '../../client/mock-admin-error.js'
import { createMockClient, type MockClient } from '../../client/mock-client.js'
import { type TokenBroker, TokenDismissed } from './token-broker.js'

/** The server's own words of a failed admin call (the `Error` body's message), else the error's message. */
export const adminErrorText = (error: unknown): string =>
  error instanceof MockAdminError ? error.body.message : error instanceof Error ? error.message : String(error)

/** The message of an `Error` body, else the text, else the status line. */
export const errorMessage = async (res: Response): Promise<string> => {
  const text = await res.text().catch(() => '')
  try {
    const body: unknown = JSON.parse(text)
    if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
      return (body as { message: string }).message
    }
  } catch {
    // Not JSON: the text is the message.
  }
  return text.trim() || `HTTP ${res.status} ${res.statusText}`.trim()
}

// Every try but the first waits for a person to type a token; the bound only stops a runaway loop.
const maxTries = 20

/**
 * A `fetch` that sends the admin token the broker holds and, on a 401, asks for one (once for every call
 * refused at the same time) and tries again; the last answer is returned as it is (a 401 when dismissed).
 */
export const tokenFetch =
  (tokens: TokenBroker, send: FetchLike = (url, init) => globalThis.fetch(url, init)): FetchLike =>
  async (url, init) => {
    for (let attempt = 1; ; attempt++) {
      const used = tokens.token
      const headers = new Headers(init.headers)
      if (used !== undefined) headers.set('Authorization', `Bearer ${used}`)
      const res = await send(url, { ...init, headers })
      if (res.status !== 401 || attempt >= maxTries) return res
      // Another call got a token meanwhile: try it before asking.
      if (tokens.token !== undefined && tokens.token !== used) continue
      try {
        await tokens.ask({ message: await errorMessage(res.clone()), refused: used !== undefined })
      } catch (error) {
        if (error instanceof TokenDismissed) return res
        throw error
      }
    }
  }

/**
 * The panel's admin calls, bound to one session: the typed client (`petstore-mock/client`) over HTTP with
 * the token the broker holds, and the same client's raw requests for what is a file or a stream.
 */
export interface AdminClient {
  readonly session: string
  /**
   * Makes the session exist before it is read (`POST /__admin/sessions/{name}`: created when new, else
   * only marked used), once; an admin read of a session no request has made yet is a 404.
   */
  open(): Promise<void>
  /** Calls the typed client of the session (every failure a `MockAdminError`) once the session is open. */
  call<T>(use: (mock: MockClient) => Promise<T>): Promise<T>
  /** A raw admin request (files, the event stream), once the session is open; `MockAdminError` on failure. */
  request(request: AdminRequest): Promise<Response>
}

/** Calls /__admin of `origin` as `session`; the token comes from `tokens` and is asked for on a 401. */
export const adminClient = (
  session: string,
  tokens: TokenBroker,
  origin: string = (globalThis as unknown as { location: { origin: string } }).location.origin,
): AdminClient => {
  const target: AdminTarget = { baseUrl: origin, session, fetch: tokenFetch(tokens) }
  const mock = createMockClient({ baseUrl: origin, session, fetch: target.fetch })
  let opening: Promise<void> | undefined
  const open = (): Promise<void> => {
    // A failed open (no token yet, the cap reached) is tried again by the next call.
    opening ??= mock.sessions.open(session).then(
      () => {},
      (error: unknown) => {
        // A token that reads but may not change (`:read`, a tenant's `access: read`) cannot open a
        // session: its reads go on, and each says what the token may.
        if (error instanceof MockAdminError && error.status === 403) return
        opening = undefined
        throw error
      },
    )
    return opening
  }
  return {
    session,
    open,
    call: async (use) => {
      await open()
      return use(mock)
    },
    request: async (request) => {
      await open()
      return sendAdmin(target, request)
    },
  }
}
