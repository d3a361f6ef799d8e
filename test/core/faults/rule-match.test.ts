import { describe, expect, it } from 'vitest'
import { keyFingerprint } from '../../../src/core/http/request/key-fingerprint.js'
import type { JournalEntry } from '../../../src/core/journal/journal-entry.js'
import type { Har } from '../../../src/core/journal/har.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'

const pets = [
  { id: 1, name: 'Biscuit', categoryId: 1, status: 'available' as const },
  { id: 2, name: 'Luna', categoryId: 2, status: 'sold' as const },
]
const admin = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
})
type Request = ReturnType<typeof contractApp>['request']
const addRule = async (request: Request, rule: unknown) => {
  const res = await request('/__admin/faults', admin(rule))
  return { status: res.status, body: (await res.json()) as { message?: string; id?: number } }
}
const status = async (request: Request, url: string, init: RequestInit = { headers: auth() }) =>
  (await request(url, init)).status
const journal = async (request: Request) =>
  ((await (await request('/__admin/requests')).json()) as { requests: JournalEntry[] }).requests
const remaining = async (request: Request) =>
  ((await (await request('/__admin/faults')).json()) as { faults: { remaining?: number }[] }).faults.map(
    (f) => f.remaining,
  )

describe('rules that target one client (when)', () => {
  it('when.apiKey by value: only that key meets the rule', async () => {
    const { request } = contractApp({ pets })
    expect((await addRule(request, { status: 503, when: { apiKey: 'mobile-key' } })).status).toBe(201)
    expect(await status(request, '/v1/pets', { headers: auth({}, 'mobile-key') })).toBe(503)
    expect(await status(request, '/v1/pets', { headers: auth({}, 'web-key') })).toBe(200)
    // No key at all: no match (and the 401 of a missing key).
    expect(await status(request, '/v1/pets', {})).toBe(401)
  })

  it('when.apiKey by fingerprint, sha256: and the first 12 hex digits of its SHA-256, as the journal shows it', async () => {
    const { request } = contractApp({ pets })
    expect(keyFingerprint('test-token')).toBe('sha256:4c5dc9b77089')
    await request('/v1/pets/1', { headers: auth() })
    const [entry] = await journal(request)
    expect(entry!.apiKeyFingerprint).toBe('sha256:4c5dc9b77089')
    expect(entry!.authorization).toBe('Bearer te…')
    await addRule(request, {
      operation: 'getPet',
      status: 404,
      when: { apiKey: { fingerprint: entry!.apiKeyFingerprint } },
    })
    expect(await status(request, '/v1/pets/1')).toBe(404)
    expect(await status(request, '/v1/pets/1', { headers: auth({}, 'other') })).toBe(200)
    // The HAR shows it too.
    const har = (await (await request('/__admin/requests.har')).json()) as Har
    expect(har.log.entries.map((e) => e._apiKeyFingerprint)).toEqual([
      'sha256:4c5dc9b77089',
      'sha256:4c5dc9b77089',
      keyFingerprint('other'),
    ])
  })

  it('when.headers: by name in any case, the value as sent (the mobile app’s User-Agent)', async () => {
    const { request } = contractApp({ pets })
    await addRule(request, {
      operation: 'listPets',
      status: 502,
      when: { headers: { 'User-Agent': 'mobile-app/1.0' } },
    })
    expect(await status(request, '/v1/pets', { headers: auth({ 'user-agent': 'mobile-app/1.0' }) })).toBe(502)
    expect(await status(request, '/v1/pets', { headers: auth({ 'USER-AGENT': 'mobile-app/1.0' }) })).toBe(502)
    expect(await status(request, '/v1/pets', { headers: auth({ 'User-Agent': 'mobile-app/1.1' }) })).toBe(200)
    expect(await status(request, '/v1/pets', { headers: auth({ 'User-Agent': 'Mobile-App/1.0' }) })).toBe(200)
    expect(await status(request, '/v1/pets')).toBe(200)
  })

  it('when.query: a parameter of the contract, one of the values sent', async () => {
    const { request } = contractApp({ pets })
    await addRule(request, { operation: 'listPets', status: 500, when: { query: { status: 'sold' } } })
    expect(await status(request, '/v1/pets?status=sold')).toBe(500)
    expect(await status(request, '/v1/pets?status=available')).toBe(200)
    expect(await status(request, '/v1/pets')).toBe(200)
  })

  it('when.body: fields of the JSON body, equal JSON values; the body is then read as usual', async () => {
    const { request } = contractApp({ pets })
    await addRule(request, { operation: 'createPet', status: 400, when: { body: { name: 'Rex', categoryId: 3 } } })
    expect(await status(request, '/v1/pets', postJson({ name: 'Rex', categoryId: 3 }))).toBe(400)
    expect(await status(request, '/v1/pets', postJson('{"name":"Rex","categoryId":3.0,"status":"sold"}'))).toBe(400)
    expect(await status(request, '/v1/pets', postJson({ name: 'Rex', categoryId: 4 }))).toBe(201)
    const created = await request('/v1/pets', postJson({ name: 'Max', categoryId: 3 }))
    expect(created.status).toBe(201)
    expect(await created.json()).toEqual({ id: 4, name: 'Max', categoryId: 3 })
    // The journal keeps the body of every one of them, as read by the body stage.
    expect((await journal(request)).map((e) => e.body)).toEqual([
      { name: 'Max', categoryId: 3 },
      { name: 'Rex', categoryId: 4 },
      { name: 'Rex', categoryId: 3, status: 'sold' },
      { name: 'Rex', categoryId: 3 },
    ])
  })

  it('a body a rule looked at is refused as before: not JSON (415), too large (413), no key (401 first)', async () => {
    const { request } = contractApp({ pets, bodyLimit: 100 })
    expect(
      (await addRule(request, { operation: 'createPet', status: 500, when: { body: { name: 'Rex' } } })).status,
    ).toBe(201)
    expect(await status(request, '/v1/pets', postJson({ name: 'Rex', categoryId: 1, pad: 'x'.repeat(100) }))).toBe(413)
    expect(
      await status(request, '/v1/pets', {
        method: 'POST',
        headers: auth({ 'Content-Type': 'text/plain' }),
        body: 'Rex',
      }),
    ).toBe(415)
    expect(
      await status(request, '/v1/pets', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"name":"Bo","categoryId":1}',
      }),
    ).toBe(401)
    expect(await status(request, '/v1/pets', postJson('{"name":"Rex",'))).toBe(400)
    expect(await status(request, '/v1/pets', postJson({ name: 'Rex', categoryId: 1 }))).toBe(500)
  })

  it('every condition must hold; a rule that does not match is neither counted down nor drawn for', async () => {
    const { request } = contractApp({ pets })
    await addRule(request, {
      operation: 'listPets',
      status: 503,
      times: 2,
      when: { apiKey: 'mobile-key', headers: { 'x-app-version': '2.1' }, query: { limit: '5' } },
    })
    const mobile = (extra: Record<string, string> = {}) => ({ headers: auth(extra, 'mobile-key') })
    expect(await status(request, '/v1/pets?limit=5', mobile())).toBe(200)
    expect(await status(request, '/v1/pets?limit=6', mobile({ 'X-App-Version': '2.1' }))).toBe(200)
    expect(await status(request, '/v1/pets?limit=5', { headers: auth({ 'X-App-Version': '2.1' }) })).toBe(200)
    expect(await remaining(request)).toEqual([2])
    expect(await status(request, '/v1/pets?limit=5', mobile({ 'X-App-Version': '2.1' }))).toBe(503)
    expect(await remaining(request)).toEqual([1])
  })

  it('the first matching rule in creation order wins, a targeted one included', async () => {
    const { request } = contractApp({ pets })
    await addRule(request, { operation: 'getPet', status: 404, when: { headers: { 'user-agent': 'mobile-app/1.0' } } })
    await addRule(request, { operation: 'getPet', status: 500 })
    expect(await status(request, '/v1/pets/1', { headers: auth({ 'User-Agent': 'mobile-app/1.0' }) })).toBe(404)
    expect(await status(request, '/v1/pets/1')).toBe(500)
  })

  it('a probability is drawn only for requests the conditions let through: the seeded run replays', async () => {
    const run = async () => {
      const { request } = contractApp({ pets, seed: 7 })
      await addRule(request, { operation: 'listPets', status: 503, probability: 0.5, when: { apiKey: 'mobile-key' } })
      const seen: number[] = []
      for (let i = 0; i < 20; i++) {
        seen.push(await status(request, '/v1/pets', { headers: auth({}, i % 2 === 0 ? 'mobile-key' : 'web-key') }))
      }
      return seen
    }
    const first = await run()
    expect(first.filter((s, i) => i % 2 === 1 && s !== 200)).toEqual([])
    expect(first.some((s) => s === 503)).toBe(true)
    expect(await run()).toEqual(first)
  })

  it.each([
    [
      { status: 500, when: { query: { nickname: 'x' } } },
      'when.query.nickname is not a query parameter of any operation (known: limit, status).',
    ],
    [
      { operation: 'getPet', status: 500, when: { query: { limit: '5' } } },
      'when.query.limit is not a query parameter of getPet.',
    ],
    [
      { operation: 'createPet', status: 500, when: { body: { nickname: 'x' } } },
      'when.body.nickname is not a field of the request body of createPet (fields: name, categoryId, status).',
    ],
    [
      { operation: 'listPets', status: 500, when: { body: { name: 'x' } } },
      'when.body applies to operations with a request body, not listPets.',
    ],
    [
      { status: 500, when: { body: { name: { first: 'x' } } } },
      'when.body.name must be a string, a number, true, false or null.',
    ],
    [{ status: 500, when: { body: {} } }, 'when.body must name at least one field.'],
    [{ status: 500, when: { headers: { 'user agent': 'x' } } }, 'when.headers: "user agent" is not a header name.'],
    [
      { status: 500, when: { headers: { 'X-A': '1', 'x-a': '2' } } },
      'when.headers names x-a twice (names are case-insensitive).',
    ],
    [{ status: 500, when: { headers: { 'x-a': 1 } } }, 'when.headers.x-a must be a string.'],
    [
      { status: 500, when: { apiKey: { fingerprint: 'XYZ' } } },
      'when.apiKey.fingerprint must be sha256: and 12 lower-case hexadecimal digits (as the journal shows it).',
    ],
    [
      { status: 500, when: { apiKey: { fingerprint: 'sha256:4c5dc9b77089', key: 'x' } } },
      'when.apiKey.key is not a known field.',
    ],
    [
      { status: 500, when: { apiKey: 5 } },
      'when.apiKey must be a string: the key, or { "fingerprint": "sha256:<12 hex digits>" }.',
    ],
    [{ status: 500, when: { apiKey: 'two words' } }, 'when.apiKey must be a key without spaces.'],
    [{ status: 500, when: { cookie: 'x' } }, 'when.cookie is not a known field.'],
    [{ status: 500, when: [] }, 'when must be a JSON object.'],
  ])('refuses a condition no request can meet, or a malformed one: %j', async (rule, message) => {
    const { request } = contractApp({ pets })
    expect(await addRule(request, rule)).toEqual({ status: 400, body: { code: 'bad_request', message, status: 400 } })
  })
})

describe('hang and drip on every store (in memory, on Redis, behind a load balancer)', () => {
  it('hang: held until the client gives up, then journaled as a reset with how long the client waited', async () => {
    const { app, request } = contractApp({ pets })
    await addRule(request, { operation: 'listPets', fault: 'hang', when: { apiKey: 'mobile-key' } })
    const controller = new AbortController()
    const start = performance.now()
    const held = Promise.resolve(
      app.request('/v1/pets', { headers: auth({}, 'mobile-key'), signal: controller.signal }),
    )
    setTimeout(() => controller.abort(), 150)
    await expect(held).rejects.toThrow()
    expect(performance.now() - start).toBeGreaterThanOrEqual(140)
    // Another client is answered meanwhile and after.
    expect(await status(request, '/v1/pets')).toBe(200)
    await expect
      .poll(async () => (await journal(request)).find((e) => e.shapedBy?.[0]?.by === 'fault'), { timeout: 3000 })
      .toMatchObject({ status: 0, shapedBy: [{ by: 'fault', ruleId: 1, fault: 'hang' }] })
  })

  it('drip: the whole body arrives, slowly', async () => {
    const { request } = contractApp({ pets })
    const whole = await (await request('/v1/pets', { headers: auth() })).text()
    await addRule(request, { operation: 'listPets', fault: 'drip', times: 1 })
    const start = performance.now()
    expect(await (await request('/v1/pets', { headers: auth() })).text()).toBe(whole)
    expect(performance.now() - start).toBeGreaterThanOrEqual((Math.ceil(whole.length / 64) - 1) * 100 - 20)
  })
})
