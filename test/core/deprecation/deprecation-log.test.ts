import { describe, expect, it } from 'vitest'
import { DeprecationLog, maxUserAgentChars } from '../../../src/core/deprecation/deprecation-log.js'
import { spec } from '../../helpers/contract.js'

const t0 = Date.parse('2026-01-01T00:00:00Z')
const iso = (ms: number) => new Date(ms).toISOString()
const client = (authorization: string | null, userAgent: string | null = 'app/1') => ({ authorization, userAgent })

describe('DeprecationLog', () => {
  it('lists every deprecated operation, even uncalled', () => {
    expect(new DeprecationLog(spec.operations).report()).toEqual([
      {
        operation: 'getPet',
        sunset: '2030-12-05T00:00:00.000Z',
        replacement: 'GET /v1/pets?status={status}',
        calls: 0,
        firstSeen: null,
        lastSeen: null,
        clients: [],
        other: { calls: 0, lastSeen: null },
      },
    ])
  })

  it('counts per client (token hint and User-Agent), most calls first; beyond the cap as other', () => {
    const log = new DeprecationLog(spec.operations, 2)
    const calls: [ReturnType<typeof client>, number, string | undefined][] = [
      [client('Bearer ab…'), t0, 'client'],
      [client(null, null), t0 + 1, 'client'],
      [client(null, null), t0 + 2, undefined],
      [client('Bearer cd…'), t0 + 3, 'overflow'],
      [client('Bearer ef…'), t0 + 4, undefined],
      [client('Bearer ab…'), t0 + 5, undefined],
      [client('Bearer ab…'), t0 + 6, undefined],
    ]
    for (const [who, at, first] of calls) expect(log.record('getPet', who, at)).toBe(first)
    expect(log.report()[0]).toMatchObject({
      calls: 7,
      firstSeen: iso(t0),
      lastSeen: iso(t0 + 6),
      clients: [
        { authorization: 'Bearer ab…', userAgent: 'app/1', calls: 3, firstSeen: iso(t0), lastSeen: iso(t0 + 6) },
        { authorization: null, userAgent: null, calls: 2, firstSeen: iso(t0 + 1), lastSeen: iso(t0 + 2) },
      ],
      other: { calls: 2, lastSeen: iso(t0 + 4) },
    })
  })

  it('keeps a User-Agent up to its cap; longer ones are one client by their start', () => {
    const log = new DeprecationLog(spec.operations)
    expect(log.record('getPet', client(null, 'u'.repeat(5000)), t0)).toBe('client')
    expect(log.record('getPet', client(null, `${'u'.repeat(5000)}v`), t0)).toBeUndefined()
    expect(log.report()[0]!.clients[0]!.userAgent).toHaveLength(maxUserAgentChars)
  })
})
