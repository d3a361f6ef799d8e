import { type TokenBroker, TokenDismissed } from './token-broker.js'

/** An admin call that failed: the status and the server's own words (the `Error` body's message). */
export class AdminError extends Error {
  override name = 'AdminError'
  readonly status: number

  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

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

/** Admin calls bound to one session, with the admin token when one is needed. */
export interface AdminClient {
  readonly session: string
  /** A successful answer; AdminError otherwise (after asking for the token on a 401). */
  request(path: string, init?: RequestInit): Promise<Response>
  /** The JSON of a successful GET. */
  json<T>(path: string): Promise<T>
  /** A call with a JSON body (or none). */
  send(method: string, path: string, body?: unknown): Promise<Response>
}

// Every try but the first waits for a person to type a token; the bound only stops a runaway loop.
const maxTries = 20

/** Calls /__admin as `session`; the token comes from `tokens` and is asked for on a 401. */
export const adminClient = (session: string, tokens: TokenBroker, base = '/__admin'): AdminClient => {
  const request = async (path: string, init: RequestInit = {}): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      const used = tokens.token
      const headers = new Headers(init.headers)
      headers.set('X-Mock-Session', session)
      if (used !== undefined) headers.set('Authorization', `Bearer ${used}`)
      const res = await fetch(`${base}${path}`, { ...init, headers })
      if (res.ok) return res
      const message = await errorMessage(res)
      if (res.status !== 401 || attempt >= maxTries) throw new AdminError(res.status, message)
      // Another call got a token meanwhile: try it before asking.
      if (tokens.token !== undefined && tokens.token !== used) continue
      try {
        await tokens.ask({ message, refused: used !== undefined })
      } catch (error) {
        if (error instanceof TokenDismissed) throw new AdminError(401, message)
        throw error
      }
    }
  }
  return {
    session,
    request,
    json: async <T>(path: string) =>
      (await (await request(path, { headers: { Accept: 'application/json' } })).json()) as T,
    send: (method, path, body) =>
      request(path, {
        method,
        ...(body !== undefined && {
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      }),
  }
}
