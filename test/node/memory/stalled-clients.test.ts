import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { heads, letGoByServer, type StalledClient, stalledClient, within } from '../../helpers/hostile-clients.js'
import { type SpawnedServer, spawnServer } from '../../helpers/spawn-server.js'
import { bearer } from '../../helpers/auth.js'

/** Resident set size of a process and its peak so far, MiB (Linux). */
const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const mib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]) / 1024
  return { rss: mib('VmRSS'), peak: mib('VmHWM') }
}
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms))
const api = bearer('hostile')
const json = { ...api, 'Content-Type': 'application/json' }

let server: SpawnedServer | undefined
let clients: StalledClient[] = []
afterEach(async () => {
  for (const client of clients) client.destroy()
  clients = []
  await server?.stop()
  server = undefined
})

// Each case is what one client without credentials could do to grow the server's memory (issue 20).
describe('clients that never read: memory stays bounded (RSS of the server process)', () => {
  it('99 creates with 1 MB names, then 6 clients that never read GET /v1/pets?limit=100: RSS grows < 50 MiB', async () => {
    server = await spawnServer(['--log', 'silent'])
    const body = JSON.stringify({ name: 'n'.repeat(1_000_000), categoryId: 1 })
    const statuses = new Set<number>()
    for (let i = 0; i < 99; i++) {
      const res = await fetch(`${server.url}/v1/pets`, {
        method: 'POST',
        headers: json,
        body,
      })
      statuses.add(res.status)
      await res.arrayBuffer()
    }
    // Refused by the name limit: the store never holds them.
    expect([...statuses]).toEqual([400])
    const before = memory(server.child.pid!)
    for (let i = 0; i < 6; i++) clients.push(await stalledClient(server.url, '/v1/pets?limit=100', api))
    await settle(1000)
    const after = memory(server.child.pid!)
    // Before the limit: a 98 MiB answer per client, about 580 MiB held.
    expect(after.rss - before.rss).toBeLessThan(50)
  }, 180_000)

  it('a client that stops reading a large answer is disconnected after --send-timeout; one that reads gets it whole', async () => {
    // 3 s: a reader on this shared machine may be starved for a while, and must still not be cut.
    server = await spawnServer(['--log', 'silent', '--max-pets', '300000', '--send-timeout', '3000'])
    const seeded = await fetch(`${server.url}/__admin/seed`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ count: 300_000 }),
    })
    expect(seeded.status).toBe(204)
    const reading = fetch(`${server.url}/__admin/state`).then((res) => res.text())
    const stalled = await stalledClient(server.url, '/__admin/state')
    clients.push(stalled)
    // Reading nothing until the server let go of it (its send timeout: no progress for 3 s), however
    // long the 17 MB answer takes to make on a busy machine; then it reads what it was sent.
    await letGoByServer(stalled, server.url)
    let received = 0
    stalled.socket.on('data', (chunk: Buffer) => (received += chunk.byteLength))
    stalled.socket.resume()
    await within(stalled.closed, 30_000, 'the end of the stalled connection')
    const whole = Buffer.byteLength(await reading)
    expect(JSON.parse(await reading).pets).toHaveLength(300_000)
    // Cut off: what the system's buffers held, not the 17 MB answer (nor a kept-alive connection).
    expect(whole).toBeGreaterThan(15_000_000)
    expect(received).toBeLessThan(whole / 2)
  }, 120_000)

  it('an idle event stream with nothing to send is not cut by the send timeout', async () => {
    server = await spawnServer(['--log', 'silent', '--send-timeout', '200'])
    const res = await fetch(`${server.url}/__admin/requests/stream`)
    const reader = res.body!.getReader()
    await reader.read()
    await settle(1500)
    await fetch(`${server.url}/v1/pets/1`, { headers: api })
    const { value, done } = await reader.read()
    expect(done).toBe(false)
    expect(new TextDecoder().decode(value)).toMatch(/^id: \d+\nevent: request\n/)
    await reader.cancel()
  })

  it('1,000 HEAD /__admin/requests/stream leave no subscriber: POSTs after them cost no more memory', async () => {
    server = await spawnServer(['--log', 'silent'])
    expect(await heads(server.url, '/__admin/requests/stream', 1000)).toEqual(new Map([[200, 1000]]))
    const before = memory(server.child.pid!)
    const body = JSON.stringify({ name: 'p', categoryId: 1, pad: 'x'.repeat(4096) })
    for (let i = 0; i < 300; i++) {
      const res = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: json, body })
      expect(res.status).toBe(201)
      await res.arrayBuffer()
    }
    // Before: each of 1,000 leaked streams queued its own copy of every entry (+1.2 GiB after 1,000 HEADs).
    expect(memory(server.child.pid!).peak - before.rss).toBeLessThan(64)
  }, 180_000)

  // 150 entries of about 50 KB (escaped bodies, a long header) in each of 10 sessions, with and without
  // 10 streams per session that never read: the streams' queues fill, then they are dropped.
  const growthOfPosts = async (streamsPerSession: number): Promise<number> => {
    const own = await spawnServer(['--log', 'silent'])
    server = own
    const sessions = Array.from({ length: 10 }, (_, i) => `s${i}`)
    for (const session of sessions) {
      for (let i = 0; i < streamsPerSession; i++) {
        clients.push(await stalledClient(own.url, '/__admin/requests/stream', { 'X-Mock-Session': session }))
      }
    }
    const before = memory(own.child.pid!)
    const body = '\u0001'.repeat(4096)
    const pad = '"'.repeat(8000)
    for (let round = 0; round < 150; round++) {
      await Promise.all(
        sessions.map(async (session) => {
          const res = await fetch(`${own.url}/v1/pets`, {
            method: 'POST',
            headers: { ...json, 'X-Mock-Session': session, 'X-Pad': pad },
            body,
          })
          await res.arrayBuffer()
        }),
      )
    }
    const grown = memory(own.child.pid!).peak - before.rss
    for (const client of clients) client.destroy()
    clients = []
    await own.stop()
    server = undefined
    return grown
  }

  it('100 event streams that never read (10 sessions): RSS grows < 64 MiB more than without them', async () => {
    const without = await growthOfPosts(0)
    const withStreams = await growthOfPosts(10)
    // Measured: +40 MiB; before (one copy of every event per stream, 1 MiB queue each): +224 MiB.
    expect(withStreams - without).toBeLessThan(64)
  }, 180_000)
})
