import { describe, expect, it } from 'vitest'
import { maxNameChars } from '../../src/core/pets/pet-limits.js'
import { auth, contractApp, postJson } from '../helpers/contract.js'

const SAFE = '9007199254740991'
const categoryIdMessage = `categoryId must be an integer between -${SAFE} and ${SAFE}.`
const petIdRange = 'must be an integer between -9223372036854775808 and 9223372036854775807'

type Case = [label: string, url: string, init: RequestInit, status: number, message: string | RegExp]

const cases: Case[] = [
  // limit: canonical decimal integers in 1..100 only
  ...['0', '101', '-1', '1.5', '1e1', '', 'abc', '01', '+5', ' 5', '0x10', '99999999999999999999'].map((v): Case => [
    `limit=${JSON.stringify(v)}`,
    `/v1/pets?limit=${encodeURIComponent(v)}`,
    { headers: auth() },
    400,
    `limit must be an integer between 1 and 100 (got ${JSON.stringify(v)}).`,
  ]),
  ...['bad', 'AVAILABLE', '', 'sold,pending'].map((v): Case => [
    `status=${JSON.stringify(v)}`,
    `/v1/pets?status=${encodeURIComponent(v)}`,
    { headers: auth() },
    400,
    `status must be one of available, pending, sold (got ${JSON.stringify(v)}).`,
  ]),
  ['limit twice', '/v1/pets?limit=1&limit=2', { headers: auth() }, 400, 'limit must be given at most once.'],
  ['status twice', '/v1/pets?status=sold&status=sold', { headers: auth() }, 400, 'status must be given at most once.'],
  // media type and JSON
  [
    'no content type',
    '/v1/pets',
    { method: 'POST', headers: auth(), body: '{"name":"a","categoryId":1}' },
    415,
    'Request body must be JSON; send Content-Type: application/json.',
  ],
  [
    'text/plain',
    '/v1/pets',
    postJson('{"name":"a","categoryId":1}', { 'Content-Type': 'text/plain' }),
    415,
    /Content-Type: application\/json/,
  ],
  ['application/jsonx', '/v1/pets', postJson('{}', { 'Content-Type': 'application/jsonx' }), 415, /Content-Type/],
  ['malformed JSON', '/v1/pets', postJson('{"name": "a",'), 400, /^Request body is not valid JSON: /],
  ['empty body', '/v1/pets', postJson(''), 400, 'Request body is required: a JSON object.'],
  ['null', '/v1/pets', postJson('null'), 400, 'Request body must be a JSON object.'],
  ['array', '/v1/pets', postJson('[{"name":"a","categoryId":1}]'), 400, 'Request body must be a JSON object.'],
  ['string', '/v1/pets', postJson('"pet"'), 400, 'Request body must be a JSON object.'],
  [
    'duplicate key',
    '/v1/pets',
    postJson('{"name":"a","name":"b","categoryId":1}'),
    400,
    /^Request body is not valid JSON: Duplicate key 'name'/,
  ],
  // fields
  ['name missing', '/v1/pets', postJson({ categoryId: 1 }), 400, 'name is required.'],
  ['name a number', '/v1/pets', postJson({ name: 5, categoryId: 1 }), 400, 'name must be a string.'],
  ['name null', '/v1/pets', postJson({ name: null, categoryId: 1 }), 400, 'name must be a string.'],
  ['categoryId missing', '/v1/pets', postJson({ name: 'a' }), 400, 'categoryId is required.'],
  ['categoryId fraction', '/v1/pets', postJson('{"name":"a","categoryId":1.5}'), 400, categoryIdMessage],
  ['categoryId numeric string', '/v1/pets', postJson({ name: 'a', categoryId: '1' }), 400, categoryIdMessage],
  ['categoryId 2^53', '/v1/pets', postJson('{"name":"a","categoryId":9007199254740992}'), 400, categoryIdMessage],
  ['categoryId -2^53', '/v1/pets', postJson('{"name":"a","categoryId":-9007199254740992}'), 400, categoryIdMessage],
  [
    'categoryId rounds to an integer',
    '/v1/pets',
    postJson('{"name":"a","categoryId":4.0000000000000001}'),
    400,
    categoryIdMessage,
  ],
  ['categoryId huge', '/v1/pets', postJson('{"name":"a","categoryId":1e400}'), 400, categoryIdMessage],
  ['categoryId boolean', '/v1/pets', postJson({ name: 'a', categoryId: true }), 400, categoryIdMessage],
  [
    'status not in enum',
    '/v1/pets',
    postJson({ name: 'a', categoryId: 1, status: 'lost' }),
    400,
    'status must be one of available, pending, sold.',
  ],
  [
    'status null',
    '/v1/pets',
    postJson({ name: 'a', categoryId: 1, status: null }),
    400,
    'status must be one of available, pending, sold.',
  ],
  // petId: canonical int64
  ...['abc', '1.5', '1e3', '0x10', '9223372036854775808', '-9223372036854775809', '01', '+1', '-0', '%20'].map(
    (v): Case => [
      `petId=${v}`,
      `/v1/pets/${v}`,
      { headers: auth() },
      400,
      `petId ${petIdRange} (got ${JSON.stringify(decodeURIComponent(v))}).`,
    ],
  ),
  // well-formed ids that match no pet
  ...['-5', '0', '9223372036854775807', '-9223372036854775808', '9007199254740993'].map((v): Case => [
    `petId=${v} (absent)`,
    `/v1/pets/${v}`,
    { headers: auth() },
    404,
    `No pet with id ${v}.`,
  ]),
]

describe('bad input', () => {
  it.each(cases)('%s', async (_, url, init, status, message) => {
    const { request } = contractApp()
    const before = await (await request('/v1/pets?limit=100', { headers: auth() })).text()
    const res = await request(url, init)
    expect(res.status).toBe(status)
    const body = await res.json()
    expect(body.status).toBe(status)
    expect(body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message))
    expect(body.code).toBe({ 400: 'bad_request', 404: 'not_found', 415: 'unsupported_media_type' }[status])
    expect(await (await request('/v1/pets?limit=100', { headers: auth() })).text()).toBe(before)
  })

  it('a pet with the id 2^53 is not returned for 2^53 + 1', async () => {
    const { request } = contractApp({ pets: [{ id: 9007199254740991, name: 'edge', categoryId: 1 }] })
    expect((await request('/v1/pets/9007199254740991', { headers: auth() })).status).toBe(200)
    expect((await request('/v1/pets/9007199254740992', { headers: auth() })).status).toBe(404)
    expect((await request('/v1/pets/9007199254740993', { headers: auth() })).status).toBe(404)
  })

  it.each([
    ['__proto__', '{"name":"a","categoryId":1,"__proto__":{"polluted":true}}'],
    ['constructor', '{"name":"a","categoryId":1,"constructor":{"prototype":{"polluted":true}}}'],
    ['prototype', '{"name":"a","categoryId":1,"prototype":{"polluted":true}}'],
    ['nested __proto__', '{"name":"a","categoryId":1,"x":{"__proto__":{"polluted":true}}}'],
  ])('%s in the body pollutes nothing and is not stored', async (_, body) => {
    const { request } = contractApp()
    const res = await request('/v1/pets', postJson(body))
    expect(res.status).toBe(201)
    const pet = await res.json()
    expect(Object.keys(pet)).toEqual(['id', 'name', 'categoryId'])
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect((Object.prototype as Record<string, unknown>)['polluted']).toBeUndefined()
    expect(await (await request(`/v1/pets/${pet.id}`, { headers: auth() })).json()).toEqual(pet)
  })

  describe('body size', () => {
    const big = JSON.stringify({ name: 'x'.repeat(2000), categoryId: 1 })

    it('413 beyond the limit with Content-Length, before parsing', async () => {
      const { request } = contractApp({ bodyLimit: 1000 })
      const res = await request('/v1/pets', postJson(`${big.slice(0, 1500)}`, { 'Content-Length': '1500' }))
      expect(res.status).toBe(413)
      expect(await res.json()).toEqual({
        code: 'payload_too_large',
        message: 'Request body is larger than the limit of 1000 bytes.',
        status: 413,
      })
    })

    it('413 beyond the limit when chunked (no Content-Length)', async () => {
      const { request } = contractApp({ bodyLimit: 1000 })
      const chunks = [big.slice(0, 600), big.slice(600)]
      const stream = new ReadableStream({
        pull(controller) {
          const next = chunks.shift()
          if (next === undefined) controller.close()
          else controller.enqueue(new TextEncoder().encode(next))
        },
      })
      const res = await request('/v1/pets', { ...postJson(''), body: stream, duplex: 'half' } as RequestInit)
      expect(res.status).toBe(413)
    })

    it('the default limit is 1 MiB', async () => {
      const { request } = contractApp()
      // An ignored field fills the body: names have their own limit (1,000 characters).
      const atLimit = JSON.stringify({ name: 'x', categoryId: 1, pad: 'x'.repeat(1024 * 1024 - 50) })
      expect((await request('/v1/pets', postJson(atLimit))).status).toBe(201)
      const over = JSON.stringify({ name: 'x'.repeat(1024 * 1024), categoryId: 1 })
      expect((await request('/v1/pets', postJson(over))).status).toBe(413)
    })
  })

  describe("name length (the mock's own limit: the spec sets none)", () => {
    it.each([
      ['1,000 characters', 'x'.repeat(maxNameChars), 201],
      ['1,000 astral characters (2,000 UTF-16 units)', '🐕'.repeat(maxNameChars), 201],
      ['1,001 characters', 'x'.repeat(maxNameChars + 1), 400],
      ['a 1 MB name', 'x'.repeat(1_000_000), 400],
    ])('%s → %i', async (_, name, status) => {
      const { request } = contractApp()
      const res = await request('/v1/pets', postJson({ name, categoryId: 1 }))
      expect(res.status).toBe(status)
      if (status === 400) {
        expect(await res.json()).toEqual({
          code: 'bad_request',
          message: `name must be at most 1000 characters (got ${[...name].length}).`,
          status: 400,
        })
      }
    })

    it('PUT /__admin/state refuses a name beyond the limit, naming the entry, and replaces nothing', async () => {
      const { request } = contractApp()
      const res = await request('/__admin/state', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          pets: [
            { id: 1, name: 'ok', categoryId: 1 },
            { id: 2, name: 'x'.repeat(1001), categoryId: 1 },
          ],
        }),
      })
      expect(res.status).toBe(400)
      expect((await res.json()).message).toBe('state: entry 1: name must be at most 1000 characters (got 1001).')
    })
  })

  it('an unexpected exception is a 500 with no stack trace, and the server keeps serving', async () => {
    const errors: string[] = []
    const logger = { request() {}, warn() {}, error: (m: string) => errors.push(m) }
    const { app, request } = contractApp({ logger })
    app.get('/v1/boom', () => {
      throw new TypeError('secret detail')
    })
    const res = await request('/v1/boom', { headers: auth() })
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({
      code: 'internal_error',
      message: 'The server failed unexpectedly; the failure was logged.',
      status: 500,
    })
    expect(errors).toEqual(['GET /v1/boom failed unexpectedly'])
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
  })
})
