import { reasonPhrases } from './http-status.js'

/** The error codes this server documents, by HTTP status. */
export const errorCodes: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
  507: 'insufficient_storage',
}

const defaultMessages: Readonly<Record<number, string>> = {
  400: 'The request is invalid.',
  401: 'Missing or invalid API key; send Authorization: Bearer <API_KEY>.',
  404: 'The requested resource could not be found.',
  429: 'Too many requests; retry later.',
  500: 'The server failed unexpectedly; retry the request.',
  502: 'The upstream service answered badly; retry later.',
  503: 'The service is temporarily unavailable; retry later.',
  504: 'The upstream service did not answer in time; retry later.',
}

/** The `Error` body of the contract: all three fields always present. */
export interface ErrorBody {
  code: string
  message: string
  status: number
}

/** The code for a status: the documented one, else the reason phrase in snake_case. */
export const errorCodeFor = (status: number): string =>
  errorCodes[status] ??
  (reasonPhrases[status] ?? `http ${status}`)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')

/** A generic sentence for a status, used for injected errors. */
export const defaultMessageFor = (status: number): string =>
  defaultMessages[status] ?? `${reasonPhrases[status] ?? 'Error'} (HTTP ${status}).`

/** An error that becomes an `Error` response; thrown anywhere in request handling. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly headers: Readonly<Record<string, string>>

  constructor(status: number, message: string, options: { code?: string; headers?: Record<string, string> } = {}) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = options.code ?? errorCodeFor(status)
    this.headers = options.headers ?? {}
  }

  get body(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status }
  }
}

/** 400 with the standard code: the usual answer to bad input. */
export const badRequest = (message: string): ApiError => new ApiError(400, message)

/**
 * Thrown where a connection_reset fault has no socket to destroy (in-process
 * `app.request()`): it escapes the app, as a reset makes `fetch` reject.
 */
export class ConnectionResetError extends Error {
  override name = 'ConnectionResetError'
}
