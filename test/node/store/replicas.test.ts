import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readStreamUntil, sendJson, startReplicas } from '../../helpers/replicas.js'
import { type RedisServer, startRedis } from '../../helpers/redis-server.js'
import { binPath, spawnServer } from '../../helpers/spawn-server.js'
import { bearer } from '../../helpers/auth.js'

// Three CLI servers on one redis-server, over loopback: one server as far as any client can tell.
let redis: RedisServer
let group: Awaited<ReturnType<typeof startReplicas>>
let urls: string[]

beforeAll(async () => {
  redis = await startRedis()
  group = await startReplicas(redis.url, 3)
  urls = group.replicas.map((r) => r.url)
}, 60_000)

afterAll(async () => {
  await group?.stop()
  await redis?.dispose()
})

const get = (i: number, path: string, headers: Record<string, string> = bearer()) =>
  fetch(`${urls[i % 3]}${path}`, { headers })

const session = (name: string) => ({ ...bearer(), 'X-Mock-Session': name })

describe('three replicas on one Redis', () => {
  it('a pet created on one is read and listed on the others', async () => {
    const created = await fetch(`${urls[0]}/v1/pets`, {
      ...sendJson('POST', { name: 'Rex', categoryId: 3, status: 'pending' }),
      headers: { ...session('share'), 'Content-Type': 'application/json' },
    })
    expect(created.status).toBe(201)
    const pet = (await created.json()) as { id: number }
    expect(created.headers.get('location')).toBe(`/v1/pets/${pet.id}`)
    const read = await get(1, `/v1/pets/${pet.id}`, session('share'))
    expect(read.status).toBe(200)
    expect(await read.json()).toEqual({ id: pet.id, name: 'Rex', categoryId: 3, status: 'pending' })
    const list = await get(2, '/v1/pets?status=pending&limit=100', session('share'))
    expect(((await list.json()) as { id: number }[]).map((p) => p.id)).toContain(pet.id)
    // Another session on any replica does not see it.
    expect((await get(2, `/v1/pets/${pet.id}`, session('other'))).status).toBe(404)
  })

  it('parallel creates spread over the three get distinct ids, each readable on another replica', async () => {
    const headers = { ...session('parallel'), 'Content-Type': 'application/json' }
    const creates = Array.from({ length: 30 }, (_, i) =>
      fetch(`${urls[i % 3]}/v1/pets`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `p${i}`, categoryId: 1 }),
      }),
    )
    const answers = await Promise.all(creates)
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(201))
    const pets = (await Promise.all(answers.map((r) => r.json()))) as { id: number; name: string }[]
    const ids = pets.map((p) => p.id)
    expect(new Set(ids).size).toBe(30)
    // The fixtures hold ids 1..12: the created ones are exactly the next 30.
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => 13 + i))
    for (const [i, pet] of pets.entries()) {
      const read = await get(i + 1, `/v1/pets/${pet.id}`, session('parallel'))
      expect(await read.json()).toEqual({ id: pet.id, name: pet.name, categoryId: 1 })
    }
  })

  it('a rule with times is counted across replicas', async () => {
    const headers = { 'Content-Type': 'application/json', 'X-Mock-Session': 'times' }
    const rule = await fetch(`${urls[0]}/__admin/faults`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ operation: 'getPet', status: 503, times: 4 }),
    })
    expect(rule.status).toBe(201)
    const statuses = await Promise.all(Array.from({ length: 9 }, (_, i) => get(i, '/v1/pets/1', session('times'))))
    expect(statuses.filter((r) => r.status === 503)).toHaveLength(4)
    expect(statuses.filter((r) => r.status === 200)).toHaveLength(5)
    const left = await fetch(`${urls[2]}/__admin/faults`, { headers })
    expect(await left.json()).toEqual({ faults: [] })
  })

  it('a targeted rule with its own answer and times is counted across replicas: the mobile app gets exactly 3 HTML 502s', async () => {
    const headers = { 'Content-Type': 'application/json', 'X-Mock-Session': 'targeted' }
    const rule = await fetch(`${urls[0]}/__admin/faults`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        operation: 'listPets',
        status: 502,
        headers: { 'Content-Type': 'text/html' },
        body: '<h1>502</h1>',
        breaksContract: true,
        times: 3,
        when: { headers: { 'User-Agent': 'mobile-app/1.0' } },
      }),
    })
    expect(rule.status).toBe(201)
    const calls = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        get(i, '/v1/pets?limit=1', { ...session('targeted'), 'User-Agent': i % 2 === 0 ? 'mobile-app/1.0' : 'web' }),
      ),
    )
    const answers = await Promise.all(calls.map(async (res) => `${res.status} ${await res.text()}`))
    expect(answers.filter((a) => a === '502 <h1>502</h1>')).toHaveLength(3)
    expect(calls.filter((res, i) => i % 2 === 1 && res.status !== 200)).toEqual([])
    const left = await fetch(`${urls[1]}/__admin/faults`, { headers })
    expect(await left.json()).toEqual({ faults: [] })
  })

  it('keeps one journal across replicas', async () => {
    for (let i = 0; i < 3; i++) await get(i, `/v1/pets/${i + 1}`, session('journal'))
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${urls[i]}/__admin/requests`, { headers: { 'X-Mock-Session': 'journal' } })
      const { requests } = (await res.json()) as { requests: { id: number; path: string }[] }
      expect(requests.map((r) => [r.id, r.path])).toEqual([
        [3, '/v1/pets/3'],
        [2, '/v1/pets/2'],
        [1, '/v1/pets/1'],
      ])
    }
  })

  it('a request served by one replica appears on an event stream held open on another', async () => {
    // Made on one replica, streamed on the other: a stream, as every read, creates no session.
    expect((await fetch(`${urls[0]}/__admin/sessions/stream`, { method: 'POST' })).status).toBe(201)
    const text = await readStreamUntil(
      `${urls[1]}/__admin/requests/stream`,
      (seen) => seen.includes('"path":"/v1/pets/7"'),
      async () => expect((await get(0, '/v1/pets/7', session('stream'))).status).toBe(200),
      10_000,
      { 'X-Mock-Session': 'stream' },
    )
    expect(text).toMatch(/event: request\ndata: \{[^\n]*"path":"\/v1\/pets\/7"/)
  })

  it('reset, the clock and the rate limit hold across replicas', async () => {
    const name = 'controls'
    const admin = { 'Content-Type': 'application/json', 'X-Mock-Session': name }
    await fetch(`${urls[0]}/v1/pets`, {
      ...sendJson('POST', { name: 'Tmp', categoryId: 1 }),
      headers: { ...admin, ...bearer() },
    })
    expect((await get(1, '/v1/pets/13', session(name))).status).toBe(200)
    expect((await fetch(`${urls[2]}/__admin/reset`, { method: 'POST', headers: admin })).status).toBe(204)
    expect((await get(0, '/v1/pets/13', session(name))).status).toBe(404)

    const clock = await fetch(`${urls[0]}/__admin/clock`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ now: '2031-02-03T04:05:06Z', frozen: true }),
    })
    expect(clock.status).toBe(200)
    const seen = await fetch(`${urls[1]}/__admin/clock`, { headers: admin })
    expect(await seen.json()).toEqual({ now: '2031-02-03T04:05:06.000Z', frozen: true, real: false })

    const limit = await fetch(`${urls[2]}/__admin/rate-limit`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ rate: '3/m' }),
    })
    expect(limit.status).toBe(200)
    const statuses = []
    // listPets: getPet is past its sunset in 2031 (410).
    for (let i = 0; i < 5; i++) statuses.push((await get(i, '/v1/pets?limit=1', session(name))).status)
    expect(statuses).toEqual([200, 200, 200, 429, 429])
  })

  it('draws the same fault sequence whether one replica or three serve, as one in-memory server does', async () => {
    const args = ['--seed', '11', '--delay', '0-2']
    const rule = { operation: 'getPet', status: 500, probability: 0.4 }
    const sequence = async (servers: string[]) => {
      const admin = { 'Content-Type': 'application/json', 'X-Mock-Session': 'draws' }
      await fetch(`${servers[0]}/__admin/faults`, { method: 'POST', headers: admin, body: JSON.stringify(rule) })
      const statuses: number[] = []
      for (let i = 0; i < 24; i++) {
        const res = await fetch(`${servers[i % servers.length]}/v1/pets/2`, { headers: session('draws') })
        statuses.push(res.status)
      }
      const journal = await fetch(`${servers[0]}/__admin/requests`, { headers: admin })
      const { requests } = (await journal.json()) as { requests: { shapedBy?: unknown }[] }
      return { statuses, shaping: requests.map((r) => r.shapedBy) }
    }
    const memory = await spawnServer(['--log', 'silent', ...args])
    const one = await startReplicas(redis.url, 1, { args })
    const three = await startReplicas(redis.url, 3, { args })
    try {
      const expected = await sequence([memory.url])
      expect(expected.statuses).toContain(500)
      expect(expected.statuses).toContain(200)
      expect(await sequence(one.replicas.map((r) => r.url))).toEqual(expected)
      expect(await sequence(three.replicas.map((r) => r.url))).toEqual(expected)
    } finally {
      await memory.stop()
      await one.stop()
      await three.stop()
    }
  }, 60_000)
})

describe('a replica that cannot listen', () => {
  it('exits 1 at once, its Redis connection closed (nothing keeps a failed start alive)', () => {
    const taken = new URL(urls[0]!).port
    const run = spawnSync(
      process.execPath,
      [binPath, '--host', '127.0.0.1', '--port', taken, '--store', redis.url, '--store-prefix', group.prefix],
      { encoding: 'utf8', timeout: 10_000, env: { PATH: process.env['PATH'] } },
    )
    expect(run.signal).toBeNull()
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/^petstore-mock: cannot start: .*EADDRINUSE/)
  })
})
