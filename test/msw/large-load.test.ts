import { describe, expect, it } from 'vitest'
import { auth } from '../helpers/contract.js'
import { useMswMock } from '../helpers/msw.js'

// Issue 29 through msw (the same core, no worker thread: the JSON is parsed on the page's event loop,
// the pets checked 2,000 at a time): a large state load lets other requests through and switches at once.
const rex = { id: 1, name: 'Rex', categoryId: 1 }
const { request } = useMswMock({ apiKeys: ['test-token'], bodyLimit: 20_000_000, pets: [rex] })
const pets = Array.from({ length: 100_000 }, (_, i) => ({ id: i + 1, name: `Pet number ${i + 1}`, categoryId: 1 }))

const put = (path: string, body: unknown, session: string) =>
  request(path, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', 'X-Mock-Session': session },
    body: JSON.stringify(body),
  })

describe('a large JSON load through msw (issue 29)', () => {
  it.each([
    ['/__admin/state', { pets }],
    ['/__admin/snapshot', { format: 1, pets }],
  ])('PUT %s of 100,000 pets: a read of another session sent meanwhile is answered first', async (path, body) => {
    const order: string[] = []
    const loading = put(path, body, 'big').then((res) => (order.push('load'), res.status))
    await new Promise((resolve) => setTimeout(resolve, 20))
    const reading = request('/v1/pets/1', { headers: auth({ 'X-Mock-Session': 'other' }) }).then(
      async (res) => (order.push('read'), [res.status, await res.json()]),
    )
    expect(await Promise.all([loading, reading])).toEqual([204, [200, rex]])
    expect(order).toEqual(['read', 'load'])
  })

  it('a pet refused near the end: 400 naming it, the session kept its pets', async () => {
    // A refused change makes no session (issue 40): the session exists first, with its start-up pets.
    expect((await request('/__admin/sessions/s', { method: 'POST' })).status).toBe(201)
    const res = await put('/__admin/state', { pets: [...pets, { id: 3, name: 'Again', categoryId: 1 }] }, 's')
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      code: 'bad_request',
      message: 'state: entry 100000: id 3 is already used by entry 2.',
      status: 400,
    })
    const state = await request('/__admin/state', { headers: { 'X-Mock-Session': 's' } })
    expect(await state.json()).toEqual({ pets: [rex] })
  })
})
