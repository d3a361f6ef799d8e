// npm run soak: a bounded mixed load over a real socket (SOAK_SECONDS, default 60), then checks.
// Exits non-zero on any violation: an unexpected status, a created pet not readable as created,
// a journal beyond its bound, RSS beyond its limit, no health, a slow client not cut off, or a
// hostile client (hostile.ts: HEAD floods, streams beyond the caps, names beyond the limit, stalled readers)
// not answered as documented.
import { connect } from 'node:net'
import { createRandom } from '../../src/core/faults/random.js'
import { startServer } from '../bench/server-process.js'
import { runHostileClients } from './hostile.js'

const seconds = Number(process.env['SOAK_SECONDS'] ?? 60)
const workers = 16
const journalSize = 500
const headersTimeoutMs = 2000
const sendTimeoutMs = 3000
const rssLimitMiB = 250
const random = createRandom(Number(process.env['SOAK_SEED'] ?? 7))
const sessions = ['default', 's-latency', 's-flaky-list', 's-flaky-get', 's-plain'] as const
const violations: string[] = []
const statusCounts = new Map<string, number>()
const created: { session: string; pet: Record<string, unknown> }[] = []
const createdIn = new Map<string, Record<string, unknown>[]>(sessions.map((s) => [s, []]))
let requests = 0

const server = await startServer([
  '--log',
  'json',
  '--seed',
  '7',
  '--max-pets',
  '1000000',
  '--journal-size',
  String(journalSize),
  '--headers-timeout',
  String(headersTimeoutMs),
  '--send-timeout',
  String(sendTimeoutMs),
])
const url = server.url
const headersFor = (session: string, extra: Record<string, string> = {}) => ({
  Authorization: 'Bearer soak',
  ...(session === 'default' ? {} : { 'X-Mock-Session': session }),
  ...extra,
})
const rule = (session: string, body: object) =>
  fetch(`${url}/__admin/faults`, {
    method: 'POST',
    headers: headersFor(session, { 'Content-Type': 'application/json' }),
    body: JSON.stringify(body),
  })
await rule('s-latency', { operation: 'createPet', delayMs: 5, probability: 0.2 })
await rule('s-flaky-list', { operation: 'listPets', status: 503, probability: 0.2 })
await rule('s-flaky-get', { operation: 'getPet', status: 500, probability: 0.1 })

/** Sends one request and checks its status against the allowed ones. */
const expectStatus = async (label: string, session: string, path: string, init: RequestInit, allowed: number[]) => {
  requests++
  const res = await fetch(`${url}${path}`, {
    ...init,
    headers: { ...headersFor(session), ...(init.headers as object) },
  })
  const text = await res.text()
  statusCounts.set(`${res.status}`, (statusCounts.get(`${res.status}`) ?? 0) + 1)
  if (!allowed.includes(res.status)) violations.push(`${label} in ${session}: ${res.status} ${text.slice(0, 200)}`)
  else if (res.status >= 400 && JSON.parse(text).status !== res.status)
    violations.push(`${label}: Error.status mismatch`)
  return { status: res.status, text }
}

const json = { 'Content-Type': 'application/json' }
// Fault rules apply before authentication and validation: any listPets call there may be the 503.
const listing = (session: string, statuses: number[]) => (session === 's-flaky-list' ? [...statuses, 503] : statuses)
const actions: [weight: number, run: (session: string) => Promise<unknown>][] = [
  [
    20,
    async (s) => {
      const pet = {
        name: `soak-${random.int(0, 1e9)}`,
        categoryId: random.int(1, 50),
        ...(random.next() < 0.7 && { status: 'sold' }),
      }
      const res = await expectStatus(
        'create',
        s,
        '/v1/pets',
        { method: 'POST', headers: json, body: JSON.stringify(pet) },
        [201],
      )
      if (res.status === 201) {
        const pet = JSON.parse(res.text)
        created.push({ session: s, pet })
        createdIn.get(s)!.push(pet)
      }
    },
  ],
  [
    25,
    (s) =>
      expectStatus(
        'list',
        s,
        `/v1/pets?limit=${random.int(1, 100)}${random.next() < 0.5 ? '&status=sold' : ''}`,
        {},
        listing(s, [200]),
      ),
  ],
  [
    20,
    async (s) => {
      const mine = createdIn.get(s)!
      const id = mine.length > 0 ? mine[random.int(0, mine.length - 1)]!['id'] : 1
      return expectStatus('get', s, `/v1/pets/${id}`, {}, s === 's-flaky-get' ? [200, 500] : [200])
    },
  ],
  [
    5,
    (s) =>
      expectStatus(
        'get absent',
        s,
        `/v1/pets/${random.int(10_000_000, 20_000_000)}`,
        {},
        s === 's-flaky-get' ? [404, 500] : [404],
      ),
  ],
  [5, (s) => expectStatus('bad limit', s, '/v1/pets?limit=0', {}, listing(s, [400]))],
  [5, (s) => expectStatus('bad body', s, '/v1/pets', { method: 'POST', headers: json, body: '{"name":1}' }, [400])],
  [5, (s) => expectStatus('no auth', s, '/v1/pets', { headers: { Authorization: 'Basic x' } }, listing(s, [401]))],
  [3, (s) => expectStatus('wrong method', s, '/v1/pets/1', { method: 'DELETE' }, [405])],
  [3, (s) => expectStatus('wrong media type', s, '/v1/pets', { method: 'POST', body: '{}' }, [415])],
  [4, (s) => expectStatus('forced 429', s, '/v1/pets', { headers: { Prefer: 'code=429' } }, [429])],
]
const totalWeight = actions.reduce((sum, [w]) => sum + w, 0)
const pick = () => {
  let n = random.int(1, totalWeight)
  for (const [w, run] of actions) if ((n -= w) <= 0) return run
  return actions[0]![1]
}

/** One byte of headers a second: Node must cut it off after the headers timeout, with a 408. */
const slowClient = (): Promise<{ ms: number; answer: string }> =>
  new Promise((resolve) => {
    const started = performance.now()
    const socket = connect(Number(new URL(url).port), '127.0.0.1')
    let answer = ''
    const bytes = 'GET /v1/pets HTTP/1.1\r\nHost: soak\r\nAuthorization: Bearer soak\r\n\r\n'
    let i = 0
    const timer = setInterval(
      () => (i < bytes.length && !socket.destroyed ? socket.write(bytes[i++]!) : undefined),
      1000,
    )
    socket.on('data', (d) => (answer += d))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(timer)
      resolve({ ms: performance.now() - started, answer })
    })
  })

let maxRss = server.rssMiB()
const until = Date.now() + seconds * 1000
const rssSampler = setInterval(() => (maxRss = Math.max(maxRss, server.rssMiB())), 500)
const slow = slowClient()
try {
  const hostile = await runHostileClients(url, until, violations)
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < until) await pick()(sessions[random.int(0, sessions.length - 1)]!)
    }),
  )
  await hostile.check()
  const cutOff = await slow
  if (!cutOff.answer.startsWith('HTTP/1.1 408') || cutOff.ms > headersTimeoutMs + 3000) {
    violations.push(
      `slow client: closed after ${cutOff.ms.toFixed(0)} ms with ${JSON.stringify(cutOff.answer.slice(0, 40))}`,
    )
  }
  // Every 201 must be readable, as created, in its session.
  for (let i = 0; i < created.length; i += 50) {
    await Promise.all(
      created.slice(i, i + 50).map(async ({ session, pet }) => {
        const res = await fetch(`${url}/v1/pets/${pet['id']}`, {
          headers: { ...headersFor(session), Prefer: 'code=200' },
        })
        const body = await res.text()
        if (res.status !== 200 || body !== JSON.stringify(pet))
          violations.push(`created pet ${pet['id']} in ${session}: ${res.status} ${body}`)
      }),
    )
  }
  for (const session of sessions) {
    const { requests: journal } = await (
      await fetch(`${url}/__admin/requests?limit=1000000`, { headers: headersFor(session) })
    ).json()
    if (journal.length > journalSize)
      violations.push(`journal of ${session}: ${journal.length} entries > ${journalSize}`)
  }
  const health = await fetch(`${url}/__admin/health`)
  if (health.status !== 200) violations.push(`health: ${health.status}`)
  maxRss = Math.max(maxRss, server.rssMiB())
  if (maxRss > rssLimitMiB) violations.push(`RSS reached ${maxRss.toFixed(1)} MiB > ${rssLimitMiB} MiB`)
  const slowResult = await slow
  console.log(
    `soak: ${seconds} s, ${workers} workers, ${sessions.length} sessions: ${requests} requests (${Math.round(requests / seconds)}/s)`,
  )
  console.log(
    `  statuses: ${[...statusCounts]
      .sort()
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
  )
  console.log(
    `  created and verified readable: ${created.length}; max RSS ${maxRss.toFixed(1)} MiB (limit ${rssLimitMiB}); journals ≤ ${journalSize}`,
  )
  const { counts } = hostile
  console.log(
    `  hostile: ${counts.heads} HEADs, ${counts.bigNames} 100 KB names, ${counts.stalledLists} stalled lists, ${counts.stalledStates} stalled 6 MB states, ${counts.streamEvents} events read by a stream beside 12 that never read`,
  )
  console.log(
    `  slow client cut off after ${(slowResult.ms / 1000).toFixed(1)} s with ${slowResult.answer.split('\r\n')[0]} (headers timeout ${headersTimeoutMs / 1000} s)`,
  )
  console.log(
    violations.length === 0
      ? 'soak: no violations'
      : `soak: ${violations.length} violations:\n  ${violations.slice(0, 20).join('\n  ')}`,
  )
} finally {
  clearInterval(rssSampler)
  await server.stop()
}
process.exitCode = violations.length === 0 ? 0 : 1
