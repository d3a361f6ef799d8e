import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppOptions, prepareMock } from '../../../../src/core/app.js'
import type { StartState } from '../../../../src/core/sessions/memory-store.js'
import { openRedisStore, type RedisSessionStore } from '../../../../src/node/store/redis/redis-store.js'
import { bearer } from '../../../helpers/auth.js'
import { type RedisServer, startRedis } from '../../../helpers/redis-server.js'
import { freezeAt, json, lastShaping, runIncident, stagingIncident, t0 } from '../../../helpers/timeline-scenario.js'

// Two replicas of one app on one redis-server: each its own store and connection, one key prefix.
let redis: RedisServer
const opened: RedisSessionStore[] = []
let prefixes = 0

beforeAll(async () => {
  redis = await startRedis()
}, 60_000)

afterAll(async () => {
  for (const store of opened) store.close()
  await redis?.dispose()
})

const replicas = async (count = 2, options: AppOptions = {}) => {
  const prefix = `timelines-${++prefixes}`
  const apps = []
  for (let i = 0; i < count; i++) {
    const factory = await openRedisStore({ url: redis.url, prefix })
    const store = (start: StartState, max: number) => {
      const made = factory(start, max)
      opened.push(made)
      return made
    }
    apps.push(prepareMock(options, store).build())
  }
  return apps
}

describe('fault timelines on two replicas of one Redis', () => {
  it('the example, on a frozen clock advanced 0, 29, 31, 59, 61, 125 s: each step gives the phase’s answer on both replicas; GET names the phase', async () => {
    const [a, b] = await replicas()
    await runIncident([a!.request, b!.request], 'incident')
  })

  it('a phase’s times and its draws are counted across the replicas: the same answers as one replica gives', async () => {
    const answers = async (apps: Awaited<ReturnType<typeof replicas>>) => {
      const [first] = apps
      await freezeAt(first!.request, 'drawn', 0)
      const body = {
        seed: 3,
        phases: [
          { for: '10s', rule: { operation: 'getPet', status: 500, times: 3 } },
          { for: '10s', rule: { operation: 'getPet', status: 503, probability: 0.5 } },
        ],
      }
      expect((await first!.request('/__admin/timelines/t', json('PUT', body, 'drawn'))).status).toBe(201)
      const headers = { ...bearer(), 'X-Mock-Session': 'drawn' }
      const got: number[] = []
      for (const at of [0, 12]) {
        await freezeAt(first!.request, 'drawn', at)
        for (let i = 0; i < 12; i++) got.push((await apps[i % apps.length]!.request('/v1/pets/1', { headers })).status)
      }
      return got
    }
    const two = await answers(await replicas(2))
    expect(two.slice(0, 12)).toEqual([500, 500, 500, ...Array(9).fill(200)])
    expect(two.slice(12).filter((s) => s === 503).length).toBeGreaterThan(0)
    expect(two.slice(12).filter((s) => s === 200).length).toBeGreaterThan(0)
    expect(await answers(await replicas(1))).toEqual(two)
  })

  it('a bundle exported mid-timeline from one replica and loaded on the other into a new session goes on with the same phases', async () => {
    const [a, b] = await replicas()
    await freezeAt(a!.request, 'source', 0)
    expect(
      (await a!.request('/__admin/timelines/staging-incident', json('PUT', stagingIncident, 'source'))).status,
    ).toBe(201)
    await freezeAt(a!.request, 'source', 40)
    const bundle = await (await a!.request('/__admin/snapshot', { headers: { 'X-Mock-Session': 'source' } })).json()
    expect((await b!.request('/__admin/snapshot', json('PUT', bundle, 'replay'))).status).toBe(204)
    const headers = { ...bearer(), 'X-Mock-Session': 'replay' }
    expect((await a!.request('/v1/pets', { headers })).status).toBe(429)
    expect(await lastShaping(b!.request, 'replay')).toEqual([
      {
        by: 'fault',
        status: 429,
        timeline: { name: 'staging-incident', phase: 1, phaseStart: new Date(t0 + 30_000).toISOString() },
      },
    ])
    await freezeAt(b!.request, 'replay', 125)
    expect((await a!.request('/v1/pets', { headers })).status).toBe(200)
    const listed = (await (
      await b!.request('/__admin/timelines', { headers: { 'X-Mock-Session': 'replay' } })
    ).json()) as {
      timelines: { name: string; current: { phase: number } }[]
    }
    expect(listed.timelines.map((t) => [t.name, t.current.phase])).toEqual([['staging-incident', 3]])
    expect(
      (
        await b!.request('/__admin/timelines/staging-incident', {
          method: 'DELETE',
          headers: { 'X-Mock-Session': 'replay' },
        })
      ).status,
    ).toBe(204)
    await freezeAt(b!.request, 'replay', 0)
    expect((await a!.request('/v1/pets', { headers })).status).toBe(200)
  })

  it('a timeline is charged by what it holds fleet-wide: PUT on one replica, seen and given back on the other; beyond the budget 507 on both', async () => {
    // 2 MiB: 1.5 MiB of state; one timeline of 24 phases of 30,000-character answers (1.4 MB counted) fits, two do not.
    const [a, b] = await replicas(2, { maxMemory: 2 })
    const big = {
      phases: Array.from({ length: 24 }, () => ({
        for: '1m',
        rule: { operation: 'getPet', status: 503, body: { message: 'x'.repeat(30_000) }, breaksContract: true },
      })),
    }
    const rules = async (app: typeof a) =>
      ((await (await app!.request('/__admin/health')).json()) as { memory: { state: { parts: { rules: number } } } })
        .memory.state.parts.rules
    expect((await a!.request('/__admin/timelines/t', json('PUT', stagingIncident, 'q'))).status).toBe(201)
    const before = await rules(b)
    expect((await a!.request('/__admin/timelines/big', json('PUT', big, 'q'))).status).toBe(201)
    expect((await rules(b)) - before).toBeGreaterThanOrEqual(2 * 24 * 30_000)
    for (const app of [a, b]) {
      const res = await app!.request('/__admin/timelines/again', json('PUT', big, 'q2'))
      expect(res.status).toBe(507)
      expect(((await res.json()) as { code: string }).code).toBe('insufficient_storage')
    }
    const listed = (await (await b!.request('/__admin/timelines', { headers: { 'X-Mock-Session': 'q' } })).json()) as {
      timelines: { name: string }[]
    }
    expect(listed.timelines.map((t) => t.name)).toEqual(['t', 'big'])
    const deleted = await b!.request('/__admin/timelines/big', { method: 'DELETE', headers: { 'X-Mock-Session': 'q' } })
    expect(deleted.status).toBe(204)
    expect(await rules(a)).toBe(before)
    expect((await b!.request('/__admin/timelines/again', json('PUT', big, 'q2'))).status).toBe(201)
  })
})
