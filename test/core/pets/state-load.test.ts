import { describe, expect, it } from 'vitest'
import { auth, contractApp } from '../../helpers/contract.js'
import { adminJson, inSession } from '../../helpers/admin.js'

// Issue 29: no single request holds the event loop for long. A large JSON state or snapshot load is
// checked a slice of pets at a time (and, on the Node host, parsed on a worker thread:
// test/node/yaml/limits-process.test.ts), then switched in at once: other requests are answered
// meanwhile, and see the old pets until the switch.

const manyPets = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `Pet number ${i + 1}`, categoryId: (i % 12) + 1 }))
const big = manyPets(100_000)
const rex = { id: 1, name: 'Rex', categoryId: 1 }
const options = { bodyLimit: 20_000_000, pets: [rex] }

type Request = ReturnType<typeof contractApp>['request']

const statePets = async (request: Request, session: string) =>
  ((await (await request('/__admin/state', { headers: inSession(session) })).json()) as { pets: unknown[] }).pets

/**
 * Makes session `name` (its seed pets) before a load into it: a read of it during the load then has
 * old pets to see wherever the load's body is held on the way (nginx in the redis-lb project reads
 * it whole before the replica sees the request, which a probe sent later can overtake).
 */
const sessionMade = async (request: Request, name: string) =>
  expect((await request('/v1/pets/1', { headers: auth(inSession(name)) })).status).toBe(200)

/**
 * Sends `load`, then, once it is under way, `probe`: the order in which their answers came, and
 * what each answered (status, and the body of the probe).
 */
const whileLoading = async (load: () => Promise<Response>, probe: () => Promise<Response>) => {
  const order: string[] = []
  const loading = load().then(async (res) => (order.push('load'), { status: res.status, body: await res.text() }))
  // Sent once the load has begun (its body read, its parse or checks under way).
  await new Promise((resolve) => setTimeout(resolve, 20))
  const probing = probe().then(async (res) => (order.push('probe'), { status: res.status, body: await res.json() }))
  const [loaded, probed] = await Promise.all([loading, probing])
  return { order, loaded, probed }
}

describe('a large JSON load does not hold other clients (issue 29)', () => {
  it('a read of another session sent while 100,000 pets are loaded by PUT /__admin/state is answered first', async () => {
    const { request } = contractApp(options)
    const { order, loaded, probed } = await whileLoading(
      () => request('/__admin/state', adminJson({ pets: big }, 'PUT', 'big')),
      () => request('/v1/pets/1', { headers: auth(inSession('other')) }),
    )
    expect(order).toEqual(['probe', 'load'])
    expect(loaded.status).toBe(204)
    expect(probed).toEqual({ status: 200, body: rex })
    expect(await statePets(request, 'big')).toEqual(big)
  })

  it('a read of another session sent while a snapshot of 100,000 pets is restored is answered first', async () => {
    const { request } = contractApp(options)
    const { order, loaded, probed } = await whileLoading(
      () => request('/__admin/snapshot', adminJson({ format: 1, pets: big }, 'PUT', 'big')),
      () => request('/v1/pets/1', { headers: auth(inSession('other')) }),
    )
    expect(order).toEqual(['probe', 'load'])
    expect(loaded.status).toBe(204)
    expect(probed).toEqual({ status: 200, body: rex })
    expect(await statePets(request, 'big')).toEqual(big)
  })

  it('a read of the same session during the load sees the old pets; the new ones come all at once', async () => {
    const { request } = contractApp(options)
    await sessionMade(request, 's')
    const { order, probed } = await whileLoading(
      () => request('/__admin/state', adminJson({ pets: big }, 'PUT', 's')),
      () => request('/__admin/state', { headers: inSession('s') }),
    )
    expect(order).toEqual(['probe', 'load'])
    expect(probed).toEqual({ status: 200, body: { pets: [rex] } })
    expect(await statePets(request, 's')).toHaveLength(100_000)
  })
})

describe('a large load refused once most of it was checked changes nothing (issue 29)', () => {
  const last = big.length
  const refusals: [string, string, unknown, string][] = [
    [
      'state, a pet near the end reuses an id',
      '/__admin/state',
      { pets: [...big, { id: 5, name: 'Again', categoryId: 1 }] },
      `state: entry ${last}: id 5 is already used by entry 4.`,
    ],
    [
      'snapshot, a pet near the end has no name',
      '/__admin/snapshot',
      { format: 1, pets: [...big, { id: last + 1, categoryId: 1 }] },
      `pets: entry ${last}: name is required.`,
    ],
  ]
  it.each(refusals)('%s: 400 naming it; the session kept its pets', async (_, path, body, message) => {
    const { request } = contractApp(options)
    await sessionMade(request, 's')
    const { order, loaded, probed } = await whileLoading(
      () => request(path, adminJson(body, 'PUT', 's')),
      () => request('/__admin/state', { headers: inSession('s') }),
    )
    expect(order).toEqual(['probe', 'load'])
    expect(probed.body).toEqual({ pets: [rex] })
    expect(loaded.status).toBe(400)
    expect(JSON.parse(loaded.body)).toEqual({ code: 'bad_request', message, status: 400 })
    expect(await statePets(request, 's')).toEqual([rex])
  })

  it('beyond the memory budget (--max-memory 1): 507 once every pet was checked, nothing replaced', async () => {
    const { request } = contractApp({ ...options, maxMemory: 1 })
    await sessionMade(request, 's')
    const { order, loaded, probed } = await whileLoading(
      () => request('/__admin/state', adminJson({ pets: big }, 'PUT', 's')),
      () => request('/__admin/state', { headers: inSession('s') }),
    )
    expect(order).toEqual(['probe', 'load'])
    expect(probed.body).toEqual({ pets: [rex] })
    expect(loaded.status).toBe(507)
    expect(JSON.parse(loaded.body)).toMatchObject({ code: 'insufficient_storage', status: 507 })
    expect(await statePets(request, 's')).toEqual([rex])
    const snapshot = await request('/__admin/snapshot', adminJson({ format: 1, pets: big }, 'PUT', 's'))
    expect(snapshot.status).toBe(507)
    expect(await statePets(request, 's')).toEqual([rex])
  })
})

describe('numbers stay exact in a large load (issue 29)', () => {
  const unsafe = `[${JSON.stringify(big).slice(1, -1)},{"id":9007199254740993,"name":"Big","categoryId":1}]`
  it.each([
    ['/__admin/state', `{"pets":${unsafe}}`, `state: entry ${big.length}: id must be an integer`],
    ['/__admin/snapshot', `{"format":1,"pets":${unsafe}}`, `pets: entry ${big.length}: id must be an integer`],
  ])('%s: an id of 2^53+1 is refused with 400 naming the field, nothing replaced', async (path, body, message) => {
    const { request } = contractApp(options)
    // A refused change makes no session (refused-writes.test.ts): the one it would replace into exists.
    await sessionMade(request, 's')
    const res = await request(path, adminJson(body, 'PUT', 's'))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      code: 'bad_request',
      message: `${message} between -9007199254740991 and 9007199254740991.`,
      status: 400,
    })
    expect(await statePets(request, 's')).toEqual([rex])
  })
})
