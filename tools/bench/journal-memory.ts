// npm run bench:journal: RSS of the production build with a full journal of large entries in every
// session (default 100 sessions × 1,000 entries), each entry at the body limit the journal keeps.
// Prints the figures; writes tools/bench/journal-memory.json.
import { writeFileSync } from 'node:fs'
import { maxBodyChars } from '../../src/core/journal/journal.js'
import { startServer } from './server-process.js'

const sessions = Number(process.env['JOURNAL_SESSIONS'] ?? 100)
const entries = Number(process.env['JOURNAL_ENTRIES'] ?? 1000)
const parallel = 8
const mib = (n: number) => `${n.toFixed(1)} MiB`

const long = 'x'.repeat(maxBodyChars * 2)
const pad = { 'X-Pad': 'p'.repeat(1024), Authorization: 'Bearer bench-token-123' }
// Request-heavy: a body twice the kept length (refused, 400, after it was read); response-heavy: a
// pet whose JSON is twice the kept length. Each entry holds one body cut at 4096 characters.
const requestHeavy = (session: string) =>
  fetch(`${url}/v1/pets?trace=${'q'.repeat(256)}`, {
    method: 'POST',
    headers: { ...pad, 'X-Mock-Session': session, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: long, categoryId: 'not a number' }),
  })
const responseHeavy = (session: string) =>
  fetch(`${url}/v1/pets/1?trace=${'q'.repeat(256)}`, { headers: { ...pad, 'X-Mock-Session': session } })

const fill = async (session: string): Promise<void> => {
  const state = await fetch(`${url}/__admin/state`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', 'X-Mock-Session': session },
    body: JSON.stringify({ pets: [{ id: 1, name: long, categoryId: 1 }] }),
  })
  if (state.status !== 204) throw new Error(`PUT /__admin/state: ${state.status}`)
  for (let i = 0; i < entries; i++) {
    const res = await (i % 2 === 0 ? requestHeavy(session) : responseHeavy(session))
    await res.arrayBuffer()
    if (res.status !== (i % 2 === 0 ? 400 : 200)) throw new Error(`unexpected ${res.status}`)
  }
}

const server = await startServer([
  '--log',
  'silent',
  '--max-sessions',
  String(sessions),
  '--journal-size',
  String(entries),
])
const url = server.url
try {
  await new Promise((r) => setTimeout(r, 500))
  const idle = server.rssMiB()
  console.log(`RSS idle: ${mib(idle)}`)
  const started = performance.now()
  const names = Array.from({ length: sessions }, (_, i) => (i === 0 ? 'default' : `s${i}`))
  for (let i = 0; i < names.length; i += parallel) await Promise.all(names.slice(i, i + parallel).map(fill))
  const seconds = (performance.now() - started) / 1000
  // Journals are full: one more round must not grow them (a ring), nor RSS beyond noise.
  const full = server.rssMiB()
  await Promise.all(names.slice(0, parallel).map(fill))
  const again = server.rssMiB()
  const check = await (await fetch(`${url}/__admin/sessions`)).json()
  const total = check.sessions.reduce((n: number, s: { requests: number }) => n + s.requests, 0)
  const perEntryKiB = ((full - idle) * 1024) / total
  const result = {
    sessions,
    entriesPerSession: entries,
    entriesKept: total,
    idleRssMiB: +idle.toFixed(1),
    fullRssMiB: +full.toFixed(1),
    afterAnotherRoundRssMiB: +again.toFixed(1),
    perEntryKiB: +perEntryKiB.toFixed(2),
    fillSeconds: +seconds.toFixed(1),
  }
  console.log(`entries kept: ${total} (${sessions} sessions × ${entries})`)
  console.log(
    `RSS with every journal full: ${mib(full)} (+${mib(full - idle)}, ${perEntryKiB.toFixed(2)} KiB per entry)`,
  )
  console.log(`RSS after another round into ${parallel} sessions: ${mib(again)}`)
  writeFileSync(new URL('journal-memory.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`)
} finally {
  await server.stop()
}
