import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AnswerSource, RequestObserver } from '../../../src/core/observe/observer.js'
import { createLogger } from '../../../src/core/log/log.js'
import { auth, contractApp } from '../../helpers/contract.js'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the request clock (http/request-clock.ts): one start and one end per request', () => {
  it('the log, the metrics stage and the journal read the clock twice per request between them, and tell the same duration', async () => {
    const seen: [string | null, number, AnswerSource, number][] = []
    const requests: RequestObserver = { answered: (...args) => void seen.push(args) }
    const lines: string[] = []
    const logger = createLogger('json', { write: (text) => lines.push(text) })
    const { request } = contractApp({ observe: { requests }, logger })
    await request('/v1/pets/1', { headers: auth() }) // everything made once, before the clock is watched
    let now = 1000
    const reads = vi.spyOn(performance, 'now').mockImplementation(() => (now += 7.5))
    const res = await request('/v1/pets/1', { headers: auth() })
    expect(res.status).toBe(200)
    expect(reads).toHaveBeenCalledTimes(2)
    reads.mockRestore()
    // Every timer measured from the same start to the same end: one clock step, 7.5 ms.
    expect(seen.at(-1)).toEqual(['getPet', 200, 'contract', 0.0075])
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ path: '/v1/pets/1', status: 200, ms: 7.5 })
    const journal = (await (await request('/__admin/requests?limit=1')).json()) as {
      requests: { durationMs: number }[]
    }
    expect(journal.requests[0]!.durationMs).toBe(7.5)
  })
})
