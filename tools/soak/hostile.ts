// The hostile clients of issue 20 in the soak's mix: HEADs of streaming and expensive GETs, event
// streams beyond the caps that never read, creates with names beyond the limit, and readers that stop reading
// large answers. Each runs until the deadline; `check` then reports what went wrong.
import { streamCaps } from '../../src/core/journal/stream/stream-caps.js'
import { type StalledClient, stalledClient, within } from '../../test/helpers/hostile-clients.js'

/** The session the hostile clients use: 1,000 pets named with 1,000 control characters, a 6 MB state. */
export const hostileSession = 's-hostile'

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)

/** Runs the hostile clients against `url` until `until` (epoch ms); returns the checks to run after. */
export const runHostileClients = async (url: string, until: number, violations: string[]) => {
  const inSession = { 'X-Mock-Session': hostileSession }
  const json = { Authorization: 'Bearer hostile', 'Content-Type': 'application/json' }
  const counts = { heads: 0, bigNames: 0, stalledLists: 0, stalledStates: 0, streamEvents: 0 }
  // Each name is 1,000 characters (the limit), each escaped as 6 bytes in JSON: GET /__admin/state is
  // about 6 MB, more than the system's socket buffers hold, so a reader that stops stalls the answer.
  const longName = JSON.stringify({ name: '\u0001'.repeat(1000), categoryId: 1 })
  for (let batch = 0; batch < 20; batch++) {
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const res = await fetch(`${url}/v1/pets`, {
          method: 'POST',
          headers: { ...json, ...inSession },
          body: longName,
        })
        await res.arrayBuffer()
        return res.status
      }),
    )
    if (statuses.some((status) => status !== 201))
      violations.push(`hostile: a long name answered ${statuses.join(' ')}`)
  }
  // One stream that reads, then more than the session's cap that never read: the extra ones get 429.
  const reading = await fetch(`${url}/__admin/requests/stream`, { headers: inSession })
  const reader = reading.body!.getReader()
  void (async () => {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      counts.streamEvents += new TextDecoder().decode(read.value).split('event: request').length - 1
    }
  })().catch(() => {})
  const streams: StalledClient[] = []
  for (let i = 0; i < streamCaps.perSession + 2; i++) {
    streams.push(await stalledClient(url, '/__admin/requests/stream', inSession))
  }

  const heads = async () => {
    const paths = ['/__admin/requests/stream', '/__admin/snapshot', '/__admin/requests.har']
    while (Date.now() < until) {
      const path = paths[counts.heads % paths.length]!
      const res = await fetch(`${url}${path}`, { method: 'HEAD', headers: inSession })
      // The stream's HEAD answers as its GET would: 429 while the session's streams are at the cap.
      const allowed = path.endsWith('stream') ? [200, 429] : [200]
      if (!allowed.includes(res.status)) violations.push(`hostile: HEAD ${path} answered ${res.status}`)
      counts.heads++
      await pause(5)
    }
  }
  const bigNames = async () => {
    // Over the name limit, in 100 KB bodies: 1 MB bodies would mostly measure V8's heap slack (see HANDOFF.md).
    const body = JSON.stringify({ name: 'n'.repeat(100_000), categoryId: 1 })
    while (Date.now() < until) {
      const res = await fetch(`${url}/v1/pets`, { method: 'POST', headers: { ...json, ...inSession }, body })
      await res.arrayBuffer()
      if (res.status !== 400) violations.push(`hostile: a 100 KB name answered ${res.status}`)
      counts.bigNames++
      await pause(1000)
    }
  }
  const stalled: { client: StalledClient; large: boolean }[] = []
  const stalledReaders = async () => {
    while (Date.now() < until) {
      stalled.push({ client: await stalledClient(url, '/v1/pets?limit=100', { ...json, ...inSession }), large: false })
      counts.stalledLists++
      if (counts.stalledLists % 5 === 0) {
        stalled.push({ client: await stalledClient(url, '/__admin/state', inSession), large: true })
        counts.stalledStates++
      }
      await pause(1000)
    }
  }
  const running = Promise.all([heads(), bigNames(), stalledReaders()])

  return {
    counts,
    /** Waits for the hostile clients, then checks what they got. */
    async check(): Promise<void> {
      await running
      const answers = streams.map((stream) => {
        let text = ''
        stream.socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
        stream.socket.resume()
        return () => text
      })
      await pause(3000)
      const statuses = answers.map((text) => statusOf(text()))
      const refused = statuses.filter((s) => s === 429).length
      if (statuses.filter((s) => s === 200).length !== streamCaps.perSession - 1 || refused !== 3) {
        violations.push(`hostile: streams beyond the cap answered ${statuses.join(' ')}`)
      }
      if (counts.streamEvents === 0) violations.push('hostile: the reading stream got no event')
      for (const stream of streams) stream.destroy()
      await reader.cancel()
      // A stalled reader of the 6 MB state must have been cut off by the send timeout: it gets less.
      await Promise.all(
        stalled.map(async ({ client, large }) => {
          let received = 0
          client.socket.on('data', (chunk: Buffer) => (received += chunk.byteLength))
          client.socket.resume()
          await within(client.closed, 15_000, 'a stalled reader closed').catch(() => client.destroy())
          if (large && received > 5_000_000) violations.push(`hostile: a stalled reader got ${received} bytes`)
        }),
      )
    },
  }
}
