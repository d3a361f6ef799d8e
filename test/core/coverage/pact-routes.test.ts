import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import type { PactDocument, PactInteraction } from '../../../src/core/coverage/pact-document.js'
import { maxInteractions } from '../../../src/core/coverage/pact-seed.js'
import { adminJson, inSession } from '../../helpers/admin.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { pactV4Schema } from '../../helpers/pact-v4-schema.js'

const validate = new Ajv({ allErrors: true, strict: false }).compile(pactV4Schema)
type Request = (url: string, init?: RequestInit) => Promise<Response>

/** GET /__admin/pact, checked against the Pact V4 schema; descriptions unique, as V4 requires. */
const pactOf = async (request: Request, query = 'consumer=web', session?: string): Promise<PactDocument> => {
  const res = await request(`/__admin/pact?${query}`, session ? { headers: inSession(session) } : {})
  expect(res.status).toBe(200)
  const pact = (await res.json()) as PactDocument
  expect(validate(pact), JSON.stringify(validate.errors)).toBe(true)
  const descriptions = pact.interactions.map((i) => i.description)
  expect(new Set(descriptions).size).toBe(descriptions.length)
  return pact
}
const find = (pact: PactDocument, description: string): PactInteraction => {
  const found = pact.interactions.find((i) => i.description === description)
  if (!found) throw new Error(`no interaction "${description}" in ${pact.interactions.map((i) => i.description)}`)
  return found
}
const token = 'secret-token-1234'
const withToken = (extra: Record<string, string> = {}) => auth(extra, token)

describe('GET /__admin/pact', () => {
  it('is a Pact V4 document between the consumer named and the API (info.title), or the provider named', async () => {
    const { request } = contractApp()
    const empty = await pactOf(request)
    expect(empty).toMatchObject({
      consumer: { name: 'web' },
      provider: { name: 'Pet Store' },
      interactions: [],
      metadata: {
        pactSpecification: { version: '4.0' },
        'petstore-mock': { session: 'default', interactionsLeftOut: 0 },
      },
    })
    expect((await pactOf(request, 'consumer=web&provider=pets-api')).provider).toEqual({ name: 'pets-api' })
    const missing = await request('/__admin/pact')
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as { message: string }).message).toMatch(/consumer is required/)
  })

  it('records what the suite did: no mock-control header, Authorization as a matcher, never the token sent', async () => {
    const { request } = contractApp()
    const headers = withToken({ 'X-Mock-Session': 'suite', Prefer: 'delay=0', 'User-Agent': 'shop/1' })
    await request('/v1/pets?limit=2&__delay=0', { headers })
    const pact = await pactOf(request, 'consumer=web', 'suite')
    const text = JSON.stringify(pact)
    expect(text).not.toContain(token)
    expect(text).not.toMatch(/X-Mock-Session|Prefer|__delay|User-Agent/i)
    const list = find(pact, 'GET /v1/pets?limit=2 → 200, given pets exist')
    expect(list.request).toEqual({
      method: 'GET',
      path: '/v1/pets',
      query: { limit: ['2'] },
      headers: { Authorization: ['Bearer example-token'] },
      matchingRules: {
        header: { Authorization: { combine: 'AND', matchers: [{ match: 'regex', regex: '^Bearer .+$' }] } },
      },
    })
    // Each pet listed like the first, by type; the state names the first pet, as the mock held it.
    expect(list.response.body?.content).toEqual([{ id: 1, name: 'Biscuit', categoryId: 1 }])
    expect(list.response.matchingRules?.body).toMatchObject({
      $: { matchers: [{ match: 'type', min: 1 }] },
      '$[*].id': { matchers: [{ match: 'integer' }] },
      '$[*].name': { matchers: [{ match: 'type' }] },
    })
    expect(list.providerStates).toEqual([
      { name: 'pets exist', params: { pets: [{ id: 1, name: 'Biscuit', categoryId: 1, status: 'available' }] } },
    ])
  })

  it("matches a new pet's id by type, and names the states of getPet from the mock's own state", async () => {
    const { request } = contractApp()
    await request('/v1/pets', postJson({ name: 'Rex', categoryId: 2, status: 'pending' }))
    await request('/v1/pets/7', { headers: withToken() })
    await request('/v1/pets/999', { headers: withToken() })
    const pact = await pactOf(request)
    const created = find(pact, 'POST /v1/pets with {name, categoryId, status} → 201')
    expect(created.request.body).toEqual({
      content: { name: 'Rex', categoryId: 2, status: 'pending' },
      contentType: 'application/json',
      contentTypeHint: 'TEXT',
      encoded: false,
    })
    expect(created.request.headers).toEqual({
      Authorization: ['Bearer example-token'],
      'Content-Type': ['application/json'],
    })
    expect(created.response.body?.content).toEqual({ id: 13, name: 'Rex', categoryId: 2, status: 'pending' })
    expect(created.response.matchingRules?.body).toEqual({
      '$.id': { combine: 'AND', matchers: [{ match: 'integer' }] },
    })
    expect(created.providerStates).toBeUndefined()
    expect(find(pact, 'GET /v1/pets/7 → 200, given a pet with id 7 exists').providerStates).toEqual([
      { name: 'a pet with id 7 exists', params: { id: 7, name: 'Rocky', categoryId: 1, status: 'sold' } },
    ])
    const missing = find(pact, 'GET /v1/pets/999 → 404, given no pet with id 999')
    expect(missing.providerStates).toEqual([{ name: 'no pet with id 999', params: { id: 999 } }])
    expect(missing.response.body?.content).toEqual({ code: 'not_found', message: 'No pet with id 999.', status: 404 })
    expect(missing.response.matchingRules?.body).toEqual({
      '$.message': { combine: 'AND', matchers: [{ match: 'type' }] },
    })
  })

  it('leaves out what a fault rule or Prefer injected, the rate limit, 5xx and 401s (authentication first)', async () => {
    const { request } = contractApp({ rateLimit: { limit: 1, windowSeconds: 60 } })
    await request('/v1/pets/1', withTokenInit({ Prefer: 'code=404' }))
    await request('/__admin/faults', adminJson({ operation: 'createPet', status: 503 }, 'POST'))
    await request('/v1/pets', postJson({ name: 'Bo', categoryId: 1 }))
    await request('/v1/pets', withTokenInit())
    expect((await request('/v1/pets', withTokenInit())).status).toBe(429)
    expect((await request('/v1/pets/2', { headers: { Authorization: 'Basic abc' } })).status).toBe(401)
    const pact = await pactOf(request)
    expect(pact.interactions.map((i) => i.description)).toEqual(['GET /v1/pets → 200, given pets exist'])
  })

  it("leaves out a breaksContract rule's own answer, even with a documented status", async () => {
    const { app, request } = contractApp()
    const rule = { operation: 'getPet', status: 200, body: { id: 'one' }, breaksContract: true, times: 1 }
    expect((await request('/__admin/faults', adminJson(rule, 'POST'))).status).toBe(201)
    // app.request: this answer breaks the contract on purpose, which `request` would refuse.
    expect(await (await app.request('/v1/pets/1', withTokenInit())).json()).toEqual({ id: 'one' })
    await request('/v1/pets/1', withTokenInit())
    const pact = await pactOf(request)
    expect(pact.interactions.map((i) => i.description)).toEqual(['GET /v1/pets/1 → 200, given a pet with id 1 exists'])
    expect(pact.interactions[0]!.response.body?.content).toMatchObject({ id: 1 })
  })

  it('keeps one interaction per operation, status, state and shape', async () => {
    const { request } = contractApp()
    for (let i = 0; i < 3; i++) {
      await request('/v1/pets', withTokenInit())
      await request('/v1/pets?status=sold', withTokenInit())
      await request('/v1/pets/1', withTokenInit())
      await request('/v1/pets', postJson({ name: `Rex ${i}`, categoryId: i + 1 }))
      await request('/v1/pets', postJson({ name: i }))
      await request('/v1/pets')
    }
    await request('/v1/pets', postJson({ name: 'Rex', categoryId: '1' }))
    const pact = await pactOf(request)
    expect(pact.interactions.map((i) => i.description)).toEqual([
      'GET /v1/pets → 200, given pets exist',
      'GET /v1/pets?status=sold → 200, given pets with status sold exist',
      'GET /v1/pets/1 → 200, given a pet with id 1 exists',
      'POST /v1/pets with {name, categoryId} → 201',
      'POST /v1/pets with {name} → 400',
      // Same fields, another shape: a second interaction.
      'POST /v1/pets with {name, categoryId} → 400',
    ])
    // The first request of each kind is the example.
    expect(find(pact, 'POST /v1/pets with {name, categoryId} → 201').request.body?.content).toEqual({
      name: 'Rex 0',
      categoryId: 1,
    })
  })

  it(`keeps at most ${maxInteractions} distinct interactions per session, and says how many requests it left out`, async () => {
    const { request } = contractApp()
    for (let id = 1; id <= maxInteractions + 3; id++) await request(`/v1/pets/${1000 + id}`, withTokenInit())
    await request('/v1/pets/1001', withTokenInit())
    const pact = await pactOf(request)
    expect(pact.interactions).toHaveLength(maxInteractions)
    expect(pact.metadata['petstore-mock'].interactionsLeftOut).toBe(3)
    await request('/__admin/reset', { method: 'POST' })
    expect((await pactOf(request)).interactions).toEqual([])
  })
})

function withTokenInit(extra: Record<string, string> = {}): RequestInit {
  return { headers: withToken(extra) }
}

describe('POST /__admin/provider-states', () => {
  const change = (state: string, params?: Record<string, unknown>, action = 'setup') =>
    adminJson({ state, ...(params && { params }), action }, 'POST')
  const pets = async (request: Request) =>
    ((await (await request('/__admin/state')).json()) as { pets: { id: number; status?: string }[] }).pets

  it('sets up each state the pacts name, in the session chosen', async () => {
    const { request } = contractApp()
    const ok = async (state: string, params?: Record<string, unknown>) => {
      const res = await request('/__admin/provider-states', change(state, params))
      expect(res.status, await res.clone().text()).toBe(200)
      expect(await res.json()).toEqual({})
    }
    await ok('a pet with id 7 exists', { id: 7, name: 'Rex', categoryId: 3 })
    expect(await (await request('/v1/pets/7', withTokenInit())).json()).toEqual({ id: 7, name: 'Rex', categoryId: 3 })
    await ok('a pet with id 40 exists', { id: 40, name: 'New', categoryId: 1, status: 'sold' })
    expect((await request('/v1/pets/40', withTokenInit())).status).toBe(200)
    await ok('no pet with id 40', { id: 40 })
    expect((await request('/v1/pets/40', withTokenInit())).status).toBe(404)
    await ok('no pet with status sold exists', { status: 'sold' })
    expect((await pets(request)).some((pet) => pet.status === 'sold')).toBe(false)
    await ok('pets with status sold exist', {
      status: 'sold',
      pets: [{ id: 3, name: 'Max', categoryId: 1, status: 'sold' }],
    })
    expect(await (await request('/v1/pets?status=sold', withTokenInit())).json()).toEqual([
      { id: 3, name: 'Max', categoryId: 1, status: 'sold' },
    ])
    await ok('no pets exist')
    expect(await pets(request)).toEqual([])
    // Without pets named: one is made.
    await ok('pets exist')
    expect(await pets(request)).toEqual([{ id: 1, name: 'Pet 1', categoryId: 1 }])
    // An interaction without provider state: the verifier calls all the same, nothing to do.
    await ok('')
    const teardown = await request('/__admin/provider-states', change('no pets exist', undefined, 'teardown'))
    expect(teardown.status).toBe(200)
    expect(await pets(request)).toHaveLength(1)
    // Another session is untouched.
    const other = await request('/__admin/provider-states', {
      ...change('no pets exist'),
      headers: { 'Content-Type': 'application/json', 'X-Mock-Session': 'other' },
    })
    expect(other.status).toBe(200)
    expect(await pets(request)).toHaveLength(1)
  })

  it('refuses what it cannot set up, naming it', async () => {
    const { request } = contractApp()
    const refused = async (init: RequestInit, message: RegExp) => {
      const res = await request('/__admin/provider-states', init)
      expect(res.status).toBe(400)
      expect(((await res.json()) as { message: string }).message).toMatch(message)
    }
    await refused(
      change('the moon is full'),
      /Unknown provider state "the moon is full"; this mock sets up: a pet with id/,
    )
    await refused(change('a pet with id 7 exists', { name: 7, categoryId: 1 }), /name/)
    await refused(change('pets with status lost exist'), /Unknown status "lost"/)
    await refused(change('pets exist', {}, 'undo'), /action must be setup or teardown/)
    await refused(adminJson([1], 'POST'), /must be a JSON object/)
  })
})
