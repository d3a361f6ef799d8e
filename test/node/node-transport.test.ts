import type { Context } from 'hono'
import { describe, expect, it } from 'vitest'
import { headerRecord } from '../../src/core/journal/journal.js'
import { nodeTransport } from '../../src/node/node-transport.js'

const withRawHeaders = (rawHeaders: string[]) => ({ env: { incoming: { rawHeaders } } }) as unknown as Context

describe('request headers for the journal', () => {
  it('nodeTransport copies Node’s raw list, which the journal may then redact', () => {
    const raw = ['Host', 'x', 'Authorization', 'Bearer secret']
    const list = nodeTransport.requestHeaders(withRawHeaders(raw))
    expect(list).toEqual(raw)
    expect(list).not.toBe(raw)
  })

  it('headerRecord: lower-case names, repeated ones joined, prototype names as plain headers', () => {
    const record = headerRecord(['Host', 'x', 'X-Dup', 'a', 'x-dup', 'b', 'Constructor', 'c', '__proto__', 'p'])
    expect({ ...record }).toEqual({ host: 'x', 'x-dup': 'a, b', constructor: 'c', ['__proto__']: 'p' })
    expect(Object.keys(record)).toEqual(['host', 'x-dup', 'constructor', '__proto__'])
  })
})
