import { readFileSync } from 'node:fs'
import { bearer } from './auth.js'

/** What the battery saw: its answers by status, the refusals' bodies, and what must read back. */
export interface BatteryReport {
  statuses: Record<number, number>
  /** The bodies of the 5xx answers that are not a 507 insufficient_storage with the Error body. */
  badFailures: string[]
  /** 201s whose pet did not read back the same. */
  lost: string[]
  /** What health, asked between phases, answered. */
  health: number[]
  /** The control session's reads, between phases. */
  control: number[]
  /** Every pet answered 201. */
  created: { session: string; id: number }[]
}

const longName = 'n'.repeat(1000)
// Two bytes a character in V8 (beyond Latin-1): what the budget counts at four.
const wideName = 'ж'.repeat(1000)
const bigHeader = 'h'.repeat(12 * 1024)

/** Runs `tasks` with at most `width` in flight. */
const pool = async (width: number, tasks: (() => Promise<void>)[]): Promise<void> => {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) await tasks[next++]!()
    }),
  )
}

/**
 * The hostile battery of issue 29 against a server at `servers` (one URL, or replicas taken in turn): long names in 5 sessions, two-byte
 * names in 80 sessions (PUT /__admin/state), seed bombs
 * (100,000 pets) in 100 sessions, 12 KB headers across 100 sessions, rule floods; health and a
 * control session's reads between the phases. Bounded: about 6,100 requests, 8 at a time.
 */
export const hostileBattery = async (servers: string | readonly string[]): Promise<BatteryReport> => {
  // Several replicas: requests go to each in turn, so that what one was answered another must read back.
  const urls = typeof servers === 'string' ? [servers] : servers
  let turn = 0
  const created: { session: string; id: number }[] = []
  const report: BatteryReport = { statuses: {}, badFailures: [], lost: [], health: [], control: [], created }
  const send = async (path: string, session: string, init: RequestInit = {}): Promise<Response> => {
    const res = await fetch(`${urls[turn++ % urls.length]}${path}`, {
      ...init,
      headers: { ...bearer('battery'), 'X-Mock-Session': session, ...init.headers },
    })
    report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1
    if (res.status >= 500) {
      const text = await res.clone().text()
      let ok = false
      try {
        const body = JSON.parse(text) as { code?: unknown; status?: unknown; message?: unknown }
        ok = res.status === 507 && body.code === 'insufficient_storage' && body.status === 507
        ok &&= typeof body.message === 'string' && res.headers.get('content-type') === 'application/json'
      } catch {}
      if (!ok) report.badFailures.push(`${init.method ?? 'GET'} ${path} → ${res.status} ${text.slice(0, 300)}`)
    }
    return res
  }
  const json = (body: unknown, method = 'POST'): RequestInit => ({
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  const createLong = (session: string) => async () => {
    const res = await send('/v1/pets', session, json({ name: longName, categoryId: 1 }))
    if (res.status === 201) created.push({ session, id: ((await res.json()) as { id: number }).id })
    else await res.arrayBuffer()
  }
  const control = await send('/v1/pets', 'control', json({ name: 'control pet', categoryId: 1 }))
  const controlPet = (await control.json()) as { id: number }
  const between = async () => {
    for (const url of urls) report.health.push((await fetch(`${url}/__admin/health`)).status)
    const read = await send(`/v1/pets/${controlPet.id}`, 'control')
    report.control.push(read.status)
    await read.arrayBuffer()
  }

  // Long names: 2,000 creates of 1,000-character names in 5 sessions.
  await pool(
    8,
    Array.from({ length: 2000 }, (_, i) => createLong(`long${i % 5}`)),
  )
  await between()
  // Wide names: 450 pets of 1,000 two-byte characters in each of 80 sessions, by PUT /__admin/state.
  const widePets = JSON.stringify({
    pets: Array.from({ length: 450 }, (_, i) => ({ id: i + 1, name: wideName, categoryId: 1, status: 'available' })),
  })
  await pool(
    4,
    Array.from({ length: 80 }, (_, i) => async () => {
      const init = { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: widePets }
      await (await send('/__admin/state', `wide${i}`, init)).arrayBuffer()
    }),
  )
  await between()
  // Seed bombs: 100,000 pets in each of 100 sessions.
  await pool(
    8,
    Array.from({ length: 100 }, (_, i) => async () => {
      await (await send('/__admin/seed', `bomb${i}`, json({ count: 100_000 }))).arrayBuffer()
    }),
  )
  await between()
  // Long names again, now that the budget is spent: refused, never a crash.
  await pool(
    8,
    Array.from({ length: 500 }, (_, i) => createLong(`long${i % 5}`)),
  )
  await between()
  // 12 KB headers across 100 sessions: the journal keeps its share.
  await pool(
    8,
    Array.from({ length: 2000 }, (_, i) => async () => {
      await (await send('/v1/pets?limit=1', `bomb${i % 100}`, { headers: { 'X-Big': bigHeader } })).arrayBuffer()
    }),
  )
  await between()
  // Rule floods: 300 rules in each of 5 sessions.
  await pool(
    8,
    Array.from({ length: 1500 }, (_, i) => async () => {
      await (await send('/__admin/faults', `rules${i % 5}`, json({ status: 500, operation: 'getPet' }))).arrayBuffer()
    }),
  )
  await between()
  // Every 201 still reads back.
  await pool(
    8,
    created.map(({ session, id }) => async () => {
      const res = await send(`/v1/pets/${id}`, session)
      const pet = res.status === 200 ? ((await res.json()) as { name: string }) : undefined
      if (pet?.name !== longName) report.lost.push(`${session} ${id}: ${res.status}`)
    }),
  )
  return report
}

/** The peak resident set of a process so far (VmHWM), MiB; Linux. */
export const peakRssMiB = (pid: number): number => {
  const kib = /VmHWM:\s+([0-9]+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  return Number(kib) / 1024
}
