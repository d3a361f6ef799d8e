import { bearer } from './auth.js'
/** A scenario touching every request-path call of the state port, and how to run it on an app (test/core/sessions/port.test.ts, the Redis store's tests). */

const auth = { ...bearer(), 'Content-Type': 'application/json' }
const admin = { 'Content-Type': 'application/json' }

/** One scenario touching every request-path call of the port: pets, ids, rules, latency, rate limit, clock, journal, deprecations, sessions. */
export const scenario: [method: string, path: string, headers?: Record<string, string>, body?: unknown][] = [
  ['GET', '/v1/pets?limit=2', auth],
  ['POST', '/v1/pets', auth, { name: 'Rex', categoryId: 1 }],
  ['POST', '/v1/pets', { ...auth, 'X-Mock-Session': 'b' }, { name: 'Bo', categoryId: 2 }],
  ['GET', '/v1/pets/1', auth],
  ['POST', '/__admin/faults', admin, { operation: 'getPet', status: 503, times: 1 }],
  ['POST', '/__admin/faults', admin, { operation: 'listPets', status: 500, probability: 0.5 }],
  ['GET', '/v1/pets/1', auth],
  ['GET', '/v1/pets/1', auth],
  ['GET', '/v1/pets', auth],
  ['GET', '/v1/pets', auth],
  ['GET', '/v1/pets', auth],
  ['GET', '/__admin/faults'],
  ['PUT', '/__admin/rate-limit', admin, { rate: '2/m' }],
  ['GET', '/v1/pets/2', auth],
  ['GET', '/v1/pets/2', auth],
  ['GET', '/v1/pets/2', auth],
  ['GET', '/__admin/rate-limit'],
  ['PUT', '/__admin/clock', admin, { now: '2030-01-01T00:00:00Z', frozen: true }],
  ['GET', '/__admin/clock'],
  ['GET', '/__admin/sessions'],
  ['GET', '/__admin/health'],
  ['DELETE', '/__admin/sessions/b'],
  ['POST', '/__admin/reset'],
  ['GET', '/v1/pets/99', auth],
]

export const runScenario = async (app: { request(path: string, init: RequestInit): Response | Promise<Response> }) => {
  const answers = []
  for (const [method, path, headers, body] of scenario) {
    const res = await app.request(path, {
      method,
      ...(headers && { headers }),
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    const json = text === '' ? null : JSON.parse(text)
    // Times and uptimes differ between two runs; everything else must not.
    if (json && typeof json === 'object' && 'uptimeSeconds' in json) delete json.uptimeSeconds
    // Health's memory figures are the process's own count; a Redis store's journal lives in Redis.
    if (json && typeof json === 'object' && 'memory' in json) delete json.memory
    // Whether the store takes writes: only a store that may refuse them (Redis) says (issue 41).
    if (json && typeof json === 'object' && 'store' in json) delete json.store
    answers.push({
      status: res.status,
      ratelimit: res.headers.get('ratelimit'),
      location: res.headers.get('location'),
      json,
    })
  }
  return answers
}
