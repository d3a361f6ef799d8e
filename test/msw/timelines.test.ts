import { describe, expect, it } from 'vitest'
import { auth } from '../helpers/contract.js'
import { useMswMock } from '../helpers/msw.js'
import { stagingIncident } from '../helpers/timeline-scenario.js'

// Issue 43 in msw's setupServer: the typed client's timelines over the mock in this process, on its clock.
const { handlers, request } = useMswMock()

describe('fault timelines in msw', () => {
  it('runs the example on the mock clock and marks the journal, as a server does', async () => {
    const { client } = handlers
    await client.clock.set({ now: '2030-01-01T00:00:00Z', frozen: true })
    const put = await client.timelines.put('staging-incident', stagingIncident)
    expect(put.created).toBe(true)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(503)
    await client.clock.set({ now: '2030-01-01T00:00:45Z', frozen: true })
    const throttled = await request('/v1/pets', { headers: auth() })
    expect({ status: throttled.status, retryAfter: throttled.headers.get('retry-after') }).toEqual({
      status: 429,
      retryAfter: '1',
    })
    expect((await client.timelines.get('staging-incident')).current).toMatchObject({ phase: 1 })
    const [latest] = await client.requests.list()
    expect(latest!.shapedBy).toEqual([
      {
        by: 'fault',
        status: 429,
        timeline: { name: 'staging-incident', phase: 1, phaseStart: '2030-01-01T00:00:30.000Z' },
      },
    ])
    await client.clock.set({ now: '2030-01-01T00:02:05Z', frozen: true })
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    await client.timelines.remove('staging-incident')
    expect((await client.timelines.list()).timelines).toEqual([])
  })
})
