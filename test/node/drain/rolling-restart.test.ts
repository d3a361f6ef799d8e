import { describe, expect, it } from 'vitest'
import { freshPrefix } from '../../helpers/replicas.js'
import type { SpawnedServer } from '../../helpers/spawn-server.js'
import { bearer } from '../../helpers/auth.js'
import { answered, defaultDrain, readinessUntil, replicasOnOwnRedis } from '../../helpers/drain.js'

// Issue 41 §1: a rolling restart of two replicas on one Redis fails no request. The client is what a
// Service gives a pod's callers: keep-alive connections (fetch's pool, one per endpoint) and a
// round robin over the live endpoint list. As kube-proxy does without a preStop hook, an endpoint
// leaves the list 1 s after its replica's SIGTERM; its replacement joins once ready.
const { replica: onRedis } = replicasOnOwnRedis()

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A failed request: a 5xx (or any status but the expected one), or a connection error. */
interface Failure {
  url: string
  what: string
}

/**
 * `clients` keep-alive clients, each sending one request after another (a POST every third, else a
 * GET), a short pause between two, to the next endpoint of `live` in turn. Bounded: `maxRequests`
 * in all, and until `stop()`.
 */
const keepAliveLoad = (live: string[], clients: number, maxRequests: number) => {
  const headers = { ...bearer(), 'Content-Type': 'application/json', 'X-Mock-Session': 'rolling' }
  const failures: Failure[] = []
  const created: { id: number; name: string }[] = []
  const answeredBy = new Map<string, number>()
  let sent = 0
  let turn = 0
  let stopped = false
  const one = async (k: number) => {
    const url = live[turn++ % live.length]!
    const post = k % 3 === 0
    try {
      const res = post
        ? await answered(`${url}/v1/pets`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: `roll-${k}`, categoryId: 1 }),
          })
        : await answered(`${url}/v1/pets?limit=5`, { headers })
      const text = await res.text()
      if (res.status !== (post ? 201 : 200)) return void failures.push({ url, what: `${res.status} ${text}` })
      answeredBy.set(url, (answeredBy.get(url) ?? 0) + 1)
      if (post) created.push(JSON.parse(text) as { id: number; name: string })
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      failures.push({ url, what: `${(error as Error).message}: ${cause?.code ?? cause?.message ?? ''}` })
    }
  }
  const client = async () => {
    while (!stopped && sent < maxRequests) {
      await one(sent++)
      await pause(10)
    }
  }
  const running = Promise.all(Array.from({ length: clients }, client))
  return {
    failures,
    created,
    answeredBy,
    sent: () => sent,
    /** Resolves once `count` more requests were sent (bounded: 30 s). */
    async further(count: number) {
      const target = sent + count
      for (let i = 0; i < 3000 && sent < target && !stopped; i++) await pause(10)
    },
    stop: async () => {
      stopped = true
      await running
    },
  }
}

describe('a rolling restart of two replicas on one Redis', () => {
  it('under keep-alive round-robin load, with each endpoint removed 1 s after SIGTERM: 0 failed requests, every 201 reads back', async () => {
    const prefix = freshPrefix()
    // Default settings but the port (0: any free one) and the store; the drain's default included.
    const replica = () => onRedis(prefix, defaultDrain)
    const first = [await replica(), await replica()]
    const live = first.map((server) => server.url)
    const load = keepAliveLoad(live, 4, 20_000)
    const exits: (number | null)[] = []
    const servedWhileStopping: number[] = []
    let last: SpawnedServer[] = []
    try {
      await load.further(40)
      let serving = [...first]
      for (const old of first) {
        const fresh = await replica()
        expect((await readinessUntil(fresh.url, 200)).status).toBe(200)
        live.push(fresh.url)
        await load.further(20)
        const before = load.answeredBy.get(old.url) ?? 0
        const exited = old.stop('SIGTERM')
        await pause(1000)
        const atRemoval = load.answeredBy.get(old.url) ?? 0
        live.splice(live.indexOf(old.url), 1)
        exits.push(await exited)
        servedWhileStopping.push(atRemoval - before)
        serving = [...serving.filter((s) => s !== old), fresh]
        await load.further(40)
      }
      last = serving
    } finally {
      await load.stop()
    }
    expect(load.failures).toEqual([])
    expect(exits).toEqual([0, 0])
    // Each old replica answered requests between its SIGTERM and its endpoint's removal.
    for (const count of servedWhileStopping) expect(count).toBeGreaterThan(0)
    expect(load.created.length).toBeGreaterThan(0)
    // Every pet created reads back, from either replica of the new pair. Fifty at a time: all at once
    // (over a thousand on a quiet machine) would open more connections than a replica serves
    // (--max-connections, 512 by default), which it closes at once, as it should.
    const headers = { ...bearer(), 'X-Mock-Session': 'rolling' }
    const reads: { status: number; same: boolean }[] = []
    for (let from = 0; from < load.created.length; from += 50) {
      const some = load.created.slice(from, from + 50)
      reads.push(
        ...(await Promise.all(
          some.map(async (pet, k) => {
            const res = await answered(`${last[(from + k) % last.length]!.url}/v1/pets/${pet.id}`, { headers })
            return { status: res.status, same: JSON.stringify(await res.json()) === JSON.stringify(pet) }
          }),
        )),
      )
    }
    expect(reads.filter((read) => read.status !== 200 || !read.same)).toEqual([])
    expect(await Promise.all(last.map((server) => server.stop('SIGTERM')))).toEqual([0, 0])
  }, 180_000)
})
