import type { ErrorBody } from '../types/index.js'

/**
 * A `/__admin` request the mock answered with an error: `status`, `code` and
 * `body` are the server's `Error` body; `message` adds the request to its message.
 */
export class MockAdminError extends Error {
  override name = 'MockAdminError'
  /** The HTTP status (equal to `body.status` for the mock's own errors). */
  readonly status: number
  readonly code: string
  /** The `Error` body as the server sent it. */
  readonly body: ErrorBody
  readonly method: string
  readonly url: string

  constructor(method: string, url: string, body: ErrorBody) {
    super(`${method} ${url} answered ${body.status} ${body.code}: ${body.message}`)
    this.status = body.status
    this.code = body.code
    this.body = body
    this.method = method
    this.url = url
  }
}

const isErrorBody = (value: unknown): value is ErrorBody => {
  const body = value as Partial<ErrorBody> | null
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof body.code === 'string' &&
    typeof body.message === 'string' &&
    typeof body.status === 'number'
  )
}

/**
 * The `Error` body of a failed answer; an answer that is not one (a proxy's
 * HTML page, another server) gets `code: "unexpected_response"` and its text.
 */
export const errorBodyOf = (status: number, text: string): ErrorBody => {
  try {
    const body: unknown = JSON.parse(text)
    if (isErrorBody(body)) return body
  } catch {
    // Not JSON: described below.
  }
  const excerpt = text.length > 200 ? `${text.slice(0, 200)}…` : text
  return {
    code: 'unexpected_response',
    message: `The answer is not a petstore-mock Error body: ${JSON.stringify(excerpt)}`,
    status,
  }
}
