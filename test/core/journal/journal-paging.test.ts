import { describe, expect, it } from 'vitest'
import { auth, contractApp, postJson } from '../../helpers/contract.js'

// Issue 31 §5: the journal filtered on the server, paged by cursor, with the entries it dropped
// counted, and a server-side wait; every answer checked by contractApp (the admin document too).
type Entry = { id: number; method: string; path: string; operation: string | null; status: number; time: string }
type Page = { requests: Entry[]; next: number; dropped: number }

const setUp = (journalSize = 1000) => {
  const { request } = contractApp({ journalSize })
  const page = async (query: string): Promise<Page> => {
    const res = await request(`/__admin/requests${query}`)
    expect(res.status).toBe(200)
    return (await res.json()) as Page
  }
  const error = async (query: string, status = 400) => {
    const res = await request(`/__admin/requests${query}`)
    expect(res.status).toBe(status)
    return ((await res.json()) as { message: string }).message
  }
  return { request, page, error }
}

/** Five requests: GET, POST (201), GET /v1/pets/1, GET /v1/pets/99 (404), POST (201). */
const traffic = async (request: ReturnType<typeof contractApp>['request']) => {
  await request('/v1/pets', { headers: auth() })
  await request('/v1/pets', postJson({ name: 'a', categoryId: 1 }))
  await request('/v1/pets/1', { headers: auth() })
  await request('/v1/pets/99', { headers: auth() })
  await request('/v1/pets', postJson({ name: 'b', categoryId: 1 }))
}

describe('GET /__admin/requests filters on the server', () => {
  it('by method, path, status and operation, together', async () => {
    const { request, page } = setUp()
    await traffic(request)
    expect((await page('?method=POST')).requests.map((e) => e.id)).toEqual([5, 2])
    expect((await page('?path=/v1/pets/99')).requests.map((e) => [e.id, e.status])).toEqual([[4, 404]])
    expect((await page('?method=GET&operation=getPet')).requests.map((e) => e.id)).toEqual([4, 3])
    expect((await page('?operation=getPet&status=200')).requests.map((e) => e.id)).toEqual([3])
    expect((await page('?method=DELETE')).requests).toEqual([])
  })

  it('by time: since (inclusive) and until (exclusive), ISO 8601 instants', async () => {
    const { request, page } = setUp()
    await traffic(request)
    const all = (await page('')).requests
    const third = all.find((e) => e.id === 3)!.time
    const since = (await page(`?since=${encodeURIComponent(third)}`)).requests.map((e) => e.id)
    expect(since).toContain(3)
    expect(since.every((id) => all.find((e) => e.id === id)!.time >= third)).toBe(true)
    expect((await page('?until=2000-01-01T00:00:00Z')).requests).toEqual([])
    expect((await page('?since=2000-01-01T00:00:00Z')).requests).toHaveLength(5)
  })
})

describe('GET /__admin/requests pages by cursor', () => {
  it('after=<id>: the oldest entries after it first, at most limit; next is the cursor to go on from', async () => {
    const { request, page } = setUp()
    await traffic(request)
    const first = await page('?after=0&limit=2')
    expect([first.requests.map((e) => e.id), first.next]).toEqual([[1, 2], 2])
    const second = await page(`?after=${first.next}&limit=2`)
    expect([second.requests.map((e) => e.id), second.next]).toEqual([[3, 4], 4])
    const third = await page(`?after=${second.next}&limit=2`)
    expect([third.requests.map((e) => e.id), third.next]).toEqual([[5], 5])
    const done = await page(`?after=${third.next}&limit=2`)
    expect([done.requests, done.next]).toEqual([[], 5])
    expect((await page('?after=1&method=POST')).requests.map((e) => e.id)).toEqual([2, 5])
  })

  it('without a cursor: newest first, next the newest id', async () => {
    const { request, page } = setUp()
    await traffic(request)
    const newest = await page('?limit=2')
    expect([newest.requests.map((e) => e.id), newest.next]).toEqual([[5, 4], 5])
  })
})

describe('GET /__admin/requests says what it dropped', () => {
  it('--journal-size 3: five requests keep [5,4,3] and say 2 were dropped; clearing drops none', async () => {
    const { request, page } = setUp(3)
    expect((await page('')).dropped).toBe(0)
    await traffic(request)
    const kept = await page('')
    expect([kept.requests.map((e) => e.id), kept.dropped]).toEqual([[5, 4, 3], 2])
    // A reader whose cursor is 1 sees that 2 is gone: the first id after it is 3.
    expect((await page('?after=1')).requests[0]!.id).toBe(3)
    expect((await request('/__admin/requests', { method: 'DELETE' })).status).toBe(204)
    expect(await page('')).toEqual({ requests: [], next: 0, dropped: 2 })
  })
})

describe('GET /__admin/requests waits on the server', () => {
  it('answers once count entries pass the filters: entries recorded while it waits count', async () => {
    const { request, page } = setUp()
    await request('/v1/pets', postJson({ name: 'a', categoryId: 1 }))
    const waiting = page('?operation=createPet&count=2&wait=30s')
    let answered = false
    void waiting.then(() => (answered = true))
    await request('/v1/pets', { headers: auth() })
    await request('/v1/pets/1', { headers: auth() })
    expect(answered).toBe(false)
    await request('/v1/pets', postJson({ name: 'b', categoryId: 1 }))
    expect((await waiting).requests.map((e) => [e.id, e.operation])).toEqual([
      [4, 'createPet'],
      [1, 'createPet'],
    ])
  })

  it('answers at once when the condition already holds, and with a cursor counts only what follows it', async () => {
    const { request, page } = setUp()
    await traffic(request)
    expect((await page('?method=POST&count=2&wait=0s')).requests.map((e) => e.id)).toEqual([5, 2])
    expect((await page('?after=2&method=POST&wait=5s')).requests.map((e) => e.id)).toEqual([5])
  })

  it('408 with the Error body when the wait ends first', async () => {
    const { request, error } = setUp()
    await traffic(request)
    expect(await error('?method=POST&count=3&wait=50ms', 408)).toBe(
      'Fewer than 3 recorded request(s) matched within 50ms; the journal was read again after each new entry.',
    )
  })
})

describe('GET /__admin/requests refuses what it cannot read', () => {
  it.each([
    ['?method=POST&foo=1', 'Unknown query parameter foo for GET /__admin/requests; it takes'],
    ['?since=5', 'since must be an ISO 8601 instant with a time zone'],
    ['?offset=2', 'Unknown query parameter offset for GET /__admin/requests; it takes'],
    ['?after=-1', 'after must be an integer between 0 and'],
    ['?method=post', 'method must be an HTTP method in capitals'],
    ['?path=v1/pets', 'path must be a path starting with /'],
    ['?count=2', 'count is what wait waits for: give wait too'],
    ['?wait=10', 'wait must be a duration of at most 60s'],
    ['?wait=61s', 'wait must be a duration of at most 60s'],
    ['?limit=0', 'limit must be an integer between 1 and 1000000'],
  ])('%s: 400 naming it', async (query, start) => {
    const { error } = setUp()
    expect(await error(query)).toMatch(new RegExp(`^${start.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}`))
  })
})
