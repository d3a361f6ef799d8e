/** A JSON admin request: PUT by default, optionally in a session. */
export const adminJson = (body: unknown, method = 'PUT', session?: string): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json', ...(session !== undefined && { 'X-Mock-Session': session }) },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})

/** Headers selecting a session, plus any given. */
export const inSession = (session: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'X-Mock-Session': session,
  ...extra,
})
