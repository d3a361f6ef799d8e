import { expect } from 'vitest'
import { bearer } from './auth.js'

/** Something that answers requests: an app's `request`, or fetch against a server. */
export type Requester = (path: string, init?: RequestInit) => Response | Promise<Response>

/** The example timeline, exactly as shown (issue 43). */
export const stagingIncident = {
  start: 'now',
  phases: [
    { for: '30s', rule: { status: 503 } },
    { for: '30s', rule: { status: 429 } },
    { for: '60s', rule: { operation: 'listPets', delayMs: 500 } },
    { for: 'forever' },
  ],
  repeat: false,
}

export const t0 = Date.parse('2030-01-01T00:00:00Z')

export const json = (method: string, body: unknown, session: string): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json', 'X-Mock-Session': session },
  body: JSON.stringify(body),
})

/** Sets the session's clock, frozen, to `t0 + seconds`. */
export const freezeAt = async (request: Requester, session: string, seconds: number): Promise<void> => {
  const res = await request(
    '/__admin/clock',
    json('PUT', { now: new Date(t0 + seconds * 1000).toISOString(), frozen: true }, session),
  )
  expect(res.status).toBe(200)
}

/** What each step of the example gives: listPets' status, its Retry-After, getPet's status, the phase GET names. */
export const incidentSteps = [
  { at: 0, list: 503, retryAfter: '1', get: 503, phase: 0 },
  { at: 29, list: 503, retryAfter: '1', get: 503, phase: 0 },
  { at: 31, list: 429, retryAfter: '1', get: 429, phase: 1 },
  { at: 59, list: 429, retryAfter: '1', get: 429, phase: 1 },
  { at: 61, list: 200, retryAfter: null, get: 200, phase: 2 },
  { at: 125, list: 200, retryAfter: null, get: 200, phase: 3 },
] as const

/** The latest journal entry's shapedBy. */
export const lastShaping = async (request: Requester, session: string): Promise<unknown> => {
  const res = await request('/__admin/requests?limit=1', { headers: { 'X-Mock-Session': session } })
  const body = (await res.json()) as { requests?: { shapedBy?: unknown }[] } | { shapedBy?: unknown }[]
  const entries = Array.isArray(body) ? body : (body.requests ?? [])
  return entries.at(-1)?.shapedBy
}

/**
 * The example on a frozen clock advanced step by step (0, 29, 31, 59, 61, 125 s): on every replica each
 * step gives the phase's answer, and GET names the phase; the journal marks the timeline's answers.
 */
export const runIncident = async (replicas: readonly Requester[], session: string): Promise<void> => {
  const [first] = replicas
  await freezeAt(first!, session, 0)
  const put = await first!('/__admin/timelines/staging-incident', json('PUT', stagingIncident, session))
  expect(put.status).toBe(201)
  const headers = { ...bearer(), 'X-Mock-Session': session }
  for (const step of incidentSteps) {
    await freezeAt(first!, session, step.at)
    for (const [i, request] of replicas.entries()) {
      const list = await request('/v1/pets?limit=1', { headers })
      expect({ step: step.at, replica: i, status: list.status, retryAfter: list.headers.get('retry-after') }).toEqual({
        step: step.at,
        replica: i,
        status: step.list,
        retryAfter: step.retryAfter,
      })
      await list.arrayBuffer()
      const get = await request('/v1/pets/1', { headers })
      expect({ step: step.at, replica: i, status: get.status }).toEqual({ step: step.at, replica: i, status: step.get })
      await get.arrayBuffer()
      const view = (await (
        await request('/__admin/timelines/staging-incident', { headers: { 'X-Mock-Session': session } })
      ).json()) as {
        current: { phase: number; startedAt: string; nextAt: string | null }
      }
      expect({ step: step.at, replica: i, phase: view.current.phase }).toEqual({
        step: step.at,
        replica: i,
        phase: step.phase,
      })
    }
  }
}
