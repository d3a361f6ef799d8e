import { beforeAll, describe, expect, it } from 'vitest'
import { contractApp, onRedis } from '../../helpers/contract.js'
import { bearer } from '../../helpers/auth.js'
import { packageVersion } from '../../../src/generated/contract.js'

const pets = [
  { id: 1, name: 'a', categoryId: 1, status: 'sold' as const },
  { id: 2, name: 'b', categoryId: 2 },
]

describe('health and admin protection', () => {
  // The first request of a file starts what serves it in the redis-lb project (nginx and three listeners,
  // a second or more): made before the test that reads the uptime, which counts from the app's start.
  beforeAll(async () => {
    await contractApp({ pets }).request('/__admin/health')
  })

  it('GET /__admin/health is cheap and open', async () => {
    const { request } = contractApp({ pets, adminToken: 'adm' })
    const res = await request('/__admin/health')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      status: 'ok',
      version: packageVersion,
      uptimeSeconds: 0,
      pets: 2,
      sessions: 1,
      sessionsDropped: 0,
      // No maxMemory: no budget, what is held still counted.
      memory: expect.objectContaining({ budgetBytes: null, usedBytes: expect.any(Number) }),
      // On Redis: whether it takes writes (issue 41); the memory store never refuses them.
      ...(onRedis() && { store: { writable: true } }),
    })
  })

  it('an open control plane by choice (--open-admin) says so in health; with a token it is not open', async () => {
    const open = await (await contractApp({ pets, openAdmin: true }).request('/__admin/health')).json()
    expect(open).toMatchObject({ status: 'ok', admin: 'open' })
    const closed = await (
      await contractApp({ pets, openAdmin: true, adminToken: 'adm' }).request('/__admin/health')
    ).json()
    expect(closed).not.toHaveProperty('admin')
    expect(await (await contractApp({ pets }).request('/__admin/health')).json()).not.toHaveProperty('admin')
  })

  it.each([
    ['GET', '/__admin/faults', 200],
    ['GET', '/__admin/state', 200],
    ['POST', '/__admin/reset', 204],
    ['GET', '/__admin/requests', 200],
    ['GET', '/__admin/sessions', 200],
    ['DELETE', '/__admin/sessions/x', 404],
  ])('with --admin-token, %s %s needs it', async (method, url, status) => {
    const { request } = contractApp({ pets, adminToken: 'adm', apiKeys: ['api'] })
    const missing = await request(url, { method })
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="petstore-admin"')
    expect((await request(url, { method, headers: bearer('api') })).status).toBe(401)
    expect((await request(url, { method, headers: bearer('adm') })).status).toBe(status)
  })

  it.each([
    ['wrong content type', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' }, 415],
    ['bad JSON', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' }, 400],
    [
      'too large',
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: `{"x":"${'y'.repeat(2000)}"}` },
      413,
    ],
  ])('admin bodies: %s → %i', async (_, init, status) => {
    const { request } = contractApp({ pets, bodyLimit: 1000 })
    const res = await request('/__admin/faults', init)
    expect(res.status).toBe(status)
    expect((await res.json()).status).toBe(status)
  })

  it('unknown admin routes are 404, wrong methods 405', async () => {
    const { request } = contractApp({ pets })
    expect((await request('/__admin/nope')).status).toBe(404)
    const res = await request('/__admin/reset')
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
  })
})
