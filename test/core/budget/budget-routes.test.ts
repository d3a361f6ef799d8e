import { describe, expect, it } from 'vitest'
import { contractApp } from '../../helpers/contract.js'
import { adminJson, inSession } from '../../helpers/admin.js'
import { bearer } from '../../helpers/auth.js'

// A budget of 1 MiB: 768 KiB for pets, rules and sessions, 256 KiB for the journal.
const options = { maxMemory: 1, pets: [{ id: 1, name: 'Rex', categoryId: 1 }] }
const api = (session: string, extra: Record<string, string> = {}) => inSession(session, { ...bearer(), ...extra })
const longName = 'n'.repeat(1000)

type Request = ReturnType<typeof contractApp>['request']

const create = (request: Request, session: string, name = longName) =>
  request('/v1/pets', {
    method: 'POST',
    headers: api(session, { 'Content-Type': 'application/json' }),
    body: JSON.stringify({ name, categoryId: 1 }),
  })

const expectFull = async (res: Response, part: string) => {
  expect(res.status).toBe(507)
  const body = (await res.json()) as { code: string; message: string; status: number }
  expect(body.code).toBe('insufficient_storage')
  expect(body.message).toMatch(/^The memory budget \(1\.0 MiB, --max-memory\) is full: /)
  expect(body.message).toContain(`${part} need`)
  expect(body.message).toMatch(/Nothing was changed\. To free it, .*; or start with a larger --max-memory\.$/)
}

/** Creates until the budget refuses; the ids answered 201. */
const fill = async (request: Request, session: string): Promise<number[]> => {
  const ids: number[] = []
  for (let i = 0; i < 1000; i++) {
    const res = await create(request, session)
    if (res.status === 507) return (await expectFull(res, 'pets'), ids)
    expect(res.status).toBe(201)
    ids.push(((await res.json()) as { id: number }).id)
  }
  throw new Error('the budget never refused a create')
}

const state = async (request: Request, session: string) =>
  ((await (await request('/__admin/state', { headers: inSession(session) })).json()) as { pets: unknown[] }).pets

describe('the memory budget on the admin API and /v1 (--max-memory 1)', () => {
  it('refuses creates beyond it with 507; every 201 reads back, reads and health keep working, a reset frees it', async () => {
    const { request } = contractApp(options)
    const ids = await fill(request, 'a')
    // Pets of 1,000-character names: the name counts (2,136 bytes each), not only the number.
    expect(ids.length).toBeGreaterThan(250)
    expect(ids.length).toBeLessThan(400)
    for (const id of ids) expect((await request(`/v1/pets/${id}`, { headers: api('a') })).status).toBe(200)
    expect((await request('/v1/pets?limit=100', { headers: api('a') })).status).toBe(200)
    const health = await request('/__admin/health')
    expect(health.status).toBe(200)
    const { memory } = (await health.json()) as { memory: { budgetBytes: number; state: { usedBytes: number } } }
    expect(memory.budgetBytes).toBe(2 ** 20)
    expect(memory.state.usedBytes).toBeGreaterThan(0.95 * 768 * 1024)
    // Another session is refused too: the budget is the server's, not the session's.
    await expectFull(await create(request, 'b', 'x'.repeat(1000)), 'pets')
    expect((await request('/__admin/reset', { method: 'POST', headers: inSession('a') })).status).toBe(204)
    expect((await create(request, 'b')).status).toBe(201)
  })

  it('refuses a seed, a state load, a snapshot load and a rule beyond it, changing nothing', async () => {
    const { request } = contractApp(options)
    // In a session of its own (one refused in the session it made leaves none: refused-writes.test.ts).
    expect((await request('/__admin/sessions/s', { method: 'POST' })).status).toBe(201)
    await expectFull(await request('/__admin/seed', adminJson({ count: 10_000 }, 'POST', 's')), 'pets')
    expect(await state(request, 's')).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }])
    const pets = Array.from({ length: 6000 }, (_, i) => ({ id: i + 1, name: `pet ${i}`, categoryId: 1 }))
    await expectFull(await request('/__admin/state', adminJson({ pets }, 'PUT', 's')), 'pets')
    expect(await state(request, 's')).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }])
    const snapshot = (await (
      await request('/__admin/snapshot', { headers: inSession('s', { Accept: 'application/json' }) })
    ).json()) as Record<string, unknown>
    await expectFull(
      await request('/__admin/snapshot', adminJson({ ...snapshot, pets, nextId: 6001 }, 'PUT', 's')),
      'pets',
    )
    expect(await state(request, 's')).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }])
    // A seed that fits is taken, and its pets are what the state then holds.
    expect((await request('/__admin/seed', adminJson({ count: 1000 }, 'POST', 's'))).status).toBe(204)
    expect(await state(request, 's')).toHaveLength(1000)
    await fill(request, 'f')
    // What a refused pet left free may still hold a rule or a few (320 bytes each).
    let rule: Response | undefined
    let added = 0
    for (let i = 0; i < 8 && rule?.status !== 507; i++) {
      rule = await request('/__admin/faults', adminJson({ status: 500 }, 'POST', 'f'))
      if (rule.status === 201) added++
    }
    await expectFull(rule!, 'fault rules')
    expect((await request('/__admin/faults', { headers: inSession('f') })).status).toBe(200)
    expect(
      ((await (await request('/__admin/faults', { headers: inSession('f') })).json()) as { faults: [] }).faults,
    ).toHaveLength(added)
    // Deleting what holds it frees it: the rule then fits.
    expect((await request('/__admin/sessions/f', { method: 'DELETE' })).status).toBe(204)
    expect((await request('/__admin/faults', adminJson({ status: 500 }, 'POST', 'f'))).status).toBe(201)
  })

  it("never refuses a request for the journal: it drops the oldest entries, every session's, to stay in its share", async () => {
    const { request } = contractApp(options)
    const big = 'h'.repeat(900)
    for (let i = 0; i < 300; i++) {
      const res = await request('/v1/pets?limit=1', { headers: api(`j${i % 10}`, { 'X-Big': big, 'X-Other': big }) })
      expect(res.status).toBe(200)
    }
    const { memory } = (await (await request('/__admin/health')).json()) as {
      memory: { journal: { shareBytes: number | null; usedBytes: number; entries: number } }
    }
    // On Redis too: the scripts that keep the entries charge them to the share, atomically (issue 29).
    expect(memory.journal.shareBytes).toBe(256 * 1024)
    expect(memory.journal.usedBytes).toBeLessThanOrEqual(256 * 1024)
    expect(memory.journal.entries).toBeLessThan(300)
    // The oldest sessions' entries went first; the newest request is in its journal.
    const journal = async (session: string) =>
      ((await (await request('/__admin/requests', { headers: inSession(session) })).json()) as { requests: unknown[] })
        .requests
    const newest = await journal('j9')
    const oldest = await journal('j0')
    expect(newest.length).toBeGreaterThan(0)
    expect(oldest.length).toBeLessThanOrEqual(newest.length)
  })
})

describe('a journal entry is bounded by bytes', () => {
  it('cuts long header values and URLs, ending them in … and listing the cuts', async () => {
    const { request } = contractApp()
    const value = 'v'.repeat(5000)
    const query = 'q'.repeat(3000)
    await request(`/v1/pets?x=${query}`, { headers: { ...bearer(), 'X-Long': value, 'X-Short': 'ok' } })
    const {
      requests: [entry],
    } = (await (await request('/__admin/requests')).json()) as {
      requests: { headers: Record<string, string>; query: Record<string, string>; cut: string[] }[]
    }
    expect(entry!.headers['x-long']).toBe(`${'v'.repeat(1023)}…`)
    expect(entry!.headers['x-short']).toBe('ok')
    expect(entry!.query['x']!.length).toBeLessThan(2048)
    expect(entry!.query['x']!.endsWith('…')).toBe(true)
    expect(entry!.cut).toEqual(['url', 'header x-long'])
  })

  it('leaves a usual entry as it was, with no cut', async () => {
    const { request } = contractApp()
    await request('/v1/pets', { headers: bearer() })
    const {
      requests: [entry],
    } = (await (await request('/__admin/requests')).json()) as { requests: Record<string, unknown>[] }
    expect(entry).not.toHaveProperty('cut')
  })
})
