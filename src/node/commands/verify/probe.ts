import { isJsonType } from '../../../core/http/json.js'
import type { ObservedAnswer } from '../../../core/spec/answer-drifts.js'

/** A request the scenario sends: a path under the base URL, with or without the key. */
export interface Probe {
  method: 'GET' | 'POST'
  /** Below the base path, with its query: `/pets?limit=1`. */
  path: string
  /** The Authorization header to send; none: no header. */
  authorization?: string
  /** A text body, sent as application/json. */
  body?: string
}

/** The request could not be made or was not answered in time. */
export class NoAnswer extends Error {
  override name = 'NoAnswer'
}

const reason = (error: unknown): string => {
  const err = error as Error & { cause?: { code?: string; message?: string } }
  if (err.name === 'TimeoutError') return 'no answer in time'
  return err.cause?.code ?? err.cause?.message ?? err.message
}

/** Sends one probe with the platform's fetch, bounded by `timeoutMs` (body included). */
export const send = async (baseUrl: string, probe: Probe, timeoutMs: number): Promise<ObservedAnswer> => {
  const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'petstore-mock-verify' }
  if (probe.authorization !== undefined) headers['Authorization'] = probe.authorization
  if (probe.body !== undefined) headers['Content-Type'] = 'application/json'
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    const res = await fetch(baseUrl + probe.path, {
      method: probe.method,
      headers,
      ...(probe.body !== undefined && { body: probe.body }),
      redirect: 'manual',
      signal,
    })
    const text = await res.text()
    const answer: ObservedAnswer = { status: res.status, headers: res.headers, text }
    if (isJsonType(res.headers.get('content-type'))) {
      try {
        answer.json = JSON.parse(text)
      } catch (error) {
        answer.jsonError = (error as Error).message
      }
    }
    return answer
  } catch (error) {
    throw new NoAnswer(`${probe.method} ${baseUrl}${probe.path}: ${reason(error)}`)
  }
}
