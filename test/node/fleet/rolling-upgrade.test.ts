import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis } from '../../../src/node/store/redis/redis-store.js'
import { packageVersion } from '../../../src/generated/contract.js'
import { type RedisServer, startRedis } from '../../helpers/redis-server.js'
import { type SpawnedServer, spawnServer } from '../../helpers/spawn-server.js'
import { buildRelease, previousRelease } from '../../helpers/previous-release.js'
import { EndpointClient } from '../../helpers/endpoint-client.js'
import { bearer } from '../../helpers/auth.js'
import { freezeAt, json as adminJson, stagingIncident } from '../../helpers/timeline-scenario.js'

// Issue 41 §5: the previous release (built from its commit) and this one on one redis-server, as a
// rolling upgrade runs them: the old replica serving, the new one joining, an old one (re)started
// meanwhile (a crash, a roll-back), the old ones stopped; a keep-alive client going round robin over
// the ready endpoints the whole time. Both versions serve correctly throughout: no request fails,
// every pet created through one is read back through the other.
let redis: RedisServer
let oldBin: string
const started: SpawnedServer[] = []

beforeAll(async () => {
  // Cached in node_modules/.cache after the first build (about 20 s with this checkout's dependencies).
  oldBin = buildRelease(previousRelease.commit)
  redis = await startRedis()
}, 600_000)

afterAll(async () => {
  for (const server of started) if (server.child.exitCode === null) await server.stop('SIGKILL')
  await redis?.dispose()
})

const args = (prefix: string) => ['--store', redis.url, '--store-prefix', prefix, '--log', 'silent']
const start = async (bin?: string, prefix = 'upgrade'): Promise<SpawnedServer> => {
  const server = await spawnServer(args(prefix), {}, 60_000, [process.execPath], bin)
  started.push(server)
  return server
}

const readiness = async (url: string): Promise<number> =>
  (await fetch(`${url}/__admin/health/ready`, { signal: AbortSignal.timeout(10_000) })).status

const json = { ...bearer('upgrade'), 'Content-Type': 'application/json' }

describe(`a rolling upgrade from ${previousRelease.version} to ${packageVersion} on one Redis`, () => {
  it('serves every request throughout, each pet read back through the other version', async () => {
    const client = new EndpointClient()
    const created: { session: string; id: number; body: string }[] = []
    const refused: string[] = []
    let stopped = false
    // Four clients at once: each creates a pet and reads it back through the next endpoint.
    const worker = async (w: number) => {
      for (let i = 0; i < 2000 && !stopped; i++) {
        const session = `up-${w}-${Math.floor(i / 25)}`
        const post = await client.send('/v1/pets', {
          method: 'POST',
          headers: { ...json, 'X-Mock-Session': session },
          body: JSON.stringify({ name: `Pet ${w}-${i}`, categoryId: 1 }),
        })
        if (!post) continue
        if (post.res.status !== 201) {
          refused.push(`POST ${post.url} ${session}: ${post.res.status} ${post.text}`)
          continue
        }
        const pet = JSON.parse(post.text) as { id: number; name: string }
        created.push({ session, id: pet.id, body: post.text })
        const get = await client.send(`/v1/pets/${pet.id}`, { headers: { ...json, 'X-Mock-Session': session } })
        if (get && (get.res.status !== 200 || get.text !== post.text)) {
          refused.push(`GET ${get.url} ${session} ${pet.id}: ${get.res.status} ${get.text} (created ${post.text})`)
        }
      }
    }
    // Waits until the clients have made `count` more pets (bounded in time).
    const progress = async (count: number) => {
      const target = created.length + count
      const until = Date.now() + 60_000
      while (created.length < target && Date.now() < until && client.failures.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(created.length, `pets made by now (failures: ${client.failures.join('; ')})`).toBeGreaterThanOrEqual(
        target,
      )
    }
    const stopReplica = async (server: SpawnedServer) => {
      // As Kubernetes does with a preStop: off the endpoints first, then the signal once its requests are done.
      client.remove(server.url)
      await client.idle(server.url)
      await server.stop('SIGTERM')
    }

    const old = await start(oldBin)
    expect(await readiness(old.url)).toBe(200)
    client.add(old.url)
    const workers = Promise.all([0, 1, 2, 3].map(worker))
    try {
      await progress(20)

      const next = await start()
      expect(next.stderr()).toContain(`petstore-mock ${packageVersion} listening`)
      expect(old.stderr()).not.toContain(`petstore-mock ${packageVersion} listening`)
      // The upgrade path of the fleet's configuration: 0.2.0's fingerprint compared, this version's record written.
      expect(next.stderr()).toContain('  fleet: joined a fleet 0.2.0 started (the options it recorded agree)')
      expect(await readiness(next.url)).toBe(200)
      client.add(next.url)
      await progress(40)
      // Both answer alike, and the old one is still ready: the layout it reads was left as it was.
      expect(await readiness(old.url)).toBe(200)
      const lists = await Promise.all(
        [old, next].map(async (server) => {
          const res = await fetch(`${server.url}/v1/pets?limit=100`, { headers: bearer('upgrade') })
          return [res.status, await res.text()]
        }),
      )
      expect(lists[1]).toEqual(lists[0])
      const client0 = connectRedis(redis.url)
      await client0.connect()
      try {
        expect(await client0.get('upgrade:schema')).toBe('4')
      } finally {
        client0.disconnect()
      }

      // An old replica (re)started mid-upgrade (a crash, a roll-back) still starts and serves.
      const again = await start(oldBin)
      expect(await readiness(again.url)).toBe(200)
      client.add(again.url)
      await progress(40)

      await stopReplica(old)
      await progress(20)
      await stopReplica(again)
      await progress(20)
      expect(client.endpoints).toEqual([next.url])
    } finally {
      stopped = true
      await workers
    }
    expect(client.failures).toEqual([])
    expect(refused).toEqual([])
    // Every endpoint answered, and every pet made through any of them reads back on the new one.
    expect([...client.answered.values()].every((count) => count > 0)).toBe(true)
    expect(client.answered.size).toBe(3)
    const last = client.endpoints[0]!
    for (const pet of created) {
      const res = await fetch(`${last}/v1/pets/${pet.id}`, { headers: { ...json, 'X-Mock-Session': pet.session } })
      expect(res.status).toBe(200)
      expect(await res.text()).toBe(pet.body)
    }
  }, 180_000)

  // Issue 43 in a mixed fleet: 0.2.0 has no timelines. A timeline put through a 0.3.0 replica is stored as
  // an inert rule (docs/reference/spec-silences.md), which a 0.2.0 replica holds without applying it.
  it('a timeline put through 0.3.0 shapes 0.3.0’s answers only; a 0.2.0 replica answers as without it, and fails nothing', async () => {
    const old = await start(oldBin, 'mixed-timelines')
    const next = await start(undefined, 'mixed-timelines')
    const session = 'incident'
    const v1 = { ...bearer('upgrade'), 'X-Mock-Session': session }
    const at = (server: SpawnedServer) => (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init)
    await freezeAt(at(next), session, 0)
    expect((await fetch(`${next.url}/__admin/timelines/down`, adminJson('PUT', stagingIncident, session))).status).toBe(
      201,
    )
    const getPet = async (server: SpawnedServer) => {
      const res = await fetch(`${server.url}/v1/pets/1`, { headers: v1 })
      return [res.status, await res.text()] as const
    }
    // The phase in force (503) on 0.3.0; 0.2.0 reads the same session and serves its pet.
    expect((await getPet(next))[0]).toBe(503)
    const [oldStatus, oldBody] = await getPet(old)
    expect(oldStatus).toBe(200)
    expect(JSON.parse(oldBody)).toMatchObject({ id: 1 })
    // 0.2.0's admin reads of that session answer too, and leave the timeline as it is.
    for (const path of ['/__admin/faults', '/__admin/requests', '/__admin/clock']) {
      expect((await fetch(`${old.url}${path}`, { headers: { 'X-Mock-Session': session } })).status, path).toBe(200)
    }
    // What 0.2.0 shows of it: a rule on an operation no request has (`~timeline`), named after the timeline.
    const oldRules = await fetch(`${old.url}/__admin/faults`, { headers: { 'X-Mock-Session': session } })
    expect(((await oldRules.json()) as { faults: unknown[] }).faults).toMatchObject([
      { name: 'timeline:down', operation: '~timeline' },
    ])
    const named = await fetch(`${next.url}/__admin/timelines/down`, { headers: { 'X-Mock-Session': session } })
    expect(named.status).toBe(200)
    expect(await named.json()).toMatchObject({ current: { phase: 0 } })
    expect((await getPet(next))[0]).toBe(503)
    expect([await readiness(old.url), await readiness(next.url)]).toEqual([200, 200])
  }, 120_000)
})
