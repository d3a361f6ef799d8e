import { describe, expect, it } from 'vitest'
import { auth, contractApp } from '../../helpers/contract.js'
import { proxiedUpstreams, replicaCount } from '../../helpers/load-balanced.js'
import { onePet } from '../../helpers/fixtures.js'

// Run by the `redis-lb` project only (vitest.redis.config.ts): what the contract suites there stand on.
describe('the contract suites behind nginx (redis-lb)', () => {
  it('send every request through nginx, round robin over three replicas that share one session', async () => {
    const { app, request } = contractApp({ pets: onePet() })
    // nginx starts with the first request (its readiness probe is proxied too).
    expect((await request('/__admin/health')).status).toBe(200)
    const before = (await proxiedUpstreams()).length
    const created = await request('/v1/pets', {
      method: 'POST',
      headers: auth({ 'Content-Type': 'application/json' }),
      body: JSON.stringify({ name: 'b', categoryId: 2 }),
    })
    expect(created.status).toBe(201)
    for (let i = 0; i < 5; i++) {
      expect((await app.request('/v1/pets/2', { headers: auth() })).status).toBe(200)
    }
    const upstreams = (await proxiedUpstreams()).slice(before)
    expect(upstreams).toHaveLength(6)
    expect(new Set(upstreams).size).toBe(replicaCount)
    const journal = await (await request('/__admin/requests')).json()
    expect(journal.requests).toHaveLength(6)
    // The journal reads as in process: the headers the caller gave, none the hop added (see
    // load-balanced.ts; the HAR's URLs, http://localhost/…, are checked by admin-har.test.ts).
    expect(journal.requests[0].path).toBe('/v1/pets/2')
    expect(Object.keys(journal.requests[5].headers).sort()).toEqual(['authorization', 'content-type'])
  })
})
