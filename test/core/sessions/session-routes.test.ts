import { describe, expect, it } from 'vitest'
import { auth, contractApp, postJson } from '../../helpers/contract.js'

const pets = [{ id: 1, name: 'seed', categoryId: 1 }]
const inSession = (name: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...auth(), ...(init.headers as Record<string, string>), 'X-Mock-Session': name },
})

describe('sessions', () => {
  it('two sessions used concurrently never see each other’s pets, faults or requests', async () => {
    const { request } = contractApp({ pets })
    await request(
      '/__admin/faults',
      inSession('b', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"operation":"getPet","status":500}',
      }),
    )
    const work = (name: string) =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          request('/v1/pets', inSession(name, postJson({ name: `${name}${i}`, categoryId: 1 }))),
        ),
      )
    const [a, b] = await Promise.all([work('a'), work('b')])
    expect(a.map((r) => r.status)).toEqual(Array(20).fill(201))
    expect(b.map((r) => r.status)).toEqual(Array(20).fill(201))
    const names = async (s: string) =>
      (await (await request('/v1/pets?limit=100', inSession(s))).json()).map((p: { name: string }) => p.name)
    expect((await names('a')).filter((n: string) => n.startsWith('b'))).toEqual([])
    expect((await names('b')).filter((n: string) => n.startsWith('a'))).toEqual([])
    expect(await names('a')).toHaveLength(21)
    expect((await request('/v1/pets/1', inSession('a'))).status).toBe(200)
    expect((await request('/v1/pets/1', inSession('b'))).status).toBe(500)
    expect(await (await request('/v1/pets', { headers: auth() })).json()).toEqual(pets)
    const journal = async (s: string) =>
      (await (await request('/__admin/requests?limit=100', inSession(s))).json()).requests
    // 20 creates, the listings above (two for a, one for b) and one getPet each
    expect(await journal('a')).toHaveLength(23)
    expect(await journal('b')).toHaveLength(22)
    expect(await journal('default')).toHaveLength(1)
  })

  it('each session has its own id counter, starting after the seed', async () => {
    const { request } = contractApp({ pets })
    expect((await (await request('/v1/pets', inSession('x', postJson({ name: 'n', categoryId: 1 })))).json()).id).toBe(
      2,
    )
    expect((await (await request('/v1/pets', inSession('y', postJson({ name: 'n', categoryId: 1 })))).json()).id).toBe(
      2,
    )
  })

  it.each(['', 'a b', 'x'.repeat(65), 'ü', 'a/b'])('an invalid name %j → 400', async (name) => {
    const { request } = contractApp({ pets })
    const res = await request('/v1/pets', inSession(name))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toMatch(
      /^X-Mock-Session must be 1 to 64 of A-Z a-z 0-9 \. _ -, not \. or \.\. \(got /,
    )
  })

  it('lists sessions with their sizes and deletes them', async () => {
    const { request } = contractApp({ pets })
    await request('/v1/pets', inSession('s1', postJson({ name: 'n', categoryId: 1 })))
    expect(await (await request('/__admin/sessions')).json()).toEqual({
      sessions: [
        { name: 'default', pets: 1, faults: 0, requests: 0 },
        { name: 's1', pets: 2, faults: 0, requests: 1 },
      ],
      expired: [],
    })
    expect((await request('/__admin/sessions/s1', { method: 'DELETE' })).status).toBe(204)
    expect((await request('/__admin/sessions/s1', { method: 'DELETE' })).status).toBe(404)
    expect((await request('/__admin/sessions/default', { method: 'DELETE' })).status).toBe(400)
    expect((await request('/v1/pets?limit=100', inSession('s1'))).status).toBe(200)
    expect(await (await request('/v1/pets?limit=100', inSession('s1'))).json()).toEqual(pets)
  })

  it('keeps at most --max-sessions, refusing a new one (503 too_many_sessions) rather than dropping a live one', async () => {
    const { request } = contractApp({ pets, maxSessions: 2 })
    for (const name of ['a', 'b', 'a']) await request('/v1/pets', inSession(name))
    const refused = await request('/v1/pets', inSession('c'))
    expect(refused.status).toBe(503)
    expect((await refused.json()).code).toBe('too_many_sessions')
    const listed = (await (await request('/__admin/sessions')).json()).sessions.map((s: { name: string }) => s.name)
    expect(listed.sort()).toEqual(['a', 'b', 'default'])
  })

  it('reset and state apply to the selected session only', async () => {
    const { request } = contractApp({ pets })
    await request('/v1/pets', inSession('a', postJson({ name: 'n', categoryId: 1 })))
    await request('/v1/pets', postJson({ name: 'n', categoryId: 1 }))
    await request('/__admin/reset', inSession('a', { method: 'POST' }))
    expect((await (await request('/__admin/state', inSession('a'))).json()).pets).toHaveLength(1)
    expect((await (await request('/__admin/state')).json()).pets).toHaveLength(2)
  })
})
