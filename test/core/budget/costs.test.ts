import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { charBytes, latin1TextBytes, textBytes } from '../../../src/core/budget/costs.js'
import { recordBytes } from '../../../src/core/journal/journal.js'
import { journalRecord } from '../../helpers/journal-records.js'

describe('latin1TextBytes: header names and values, URLs', () => {
  it('counts any Latin-1 text as textBytes does, without its test', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)) }), (text) => {
        expect(latin1TextBytes(text)).toBe(textBytes(text))
      }),
    )
  })

  it('is what a header value is: Node hands header values over as Latin-1 strings, whatever bytes were sent', async () => {
    const { createServer } = await import('node:http')
    const seen: string[] = []
    const server = createServer((req, res) => {
      seen.push(req.headers['x-name'] as string)
      res.end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    const { request } = await import('node:http')
    await new Promise<void>((resolve, reject) => {
      // UTF-8 bytes of 'Łódź 中' sent raw: read back as one Latin-1 character per byte.
      const req = request({ port, host: '127.0.0.1', headers: { 'X-Name': Buffer.from('Łódź 中').toString('latin1') } })
      req.on('response', (res) => (res.resume(), res.on('end', resolve)))
      req.on('error', reject)
      req.end()
    })
    server.close()
    expect(seen[0]).toBe(Buffer.from('Łódź 中').toString('latin1'))
    expect(charBytes(seen[0]!)).toBe(2 * seen[0]!.length)
  })

  it("a journal entry's cost counts a two-byte path (hono decodes it) at four bytes a character", () => {
    const base = journalRecord(0, { url: 'http://h/v1/x', operation: null, durationMs: 0 })
    const ascii = recordBytes({ ...base, path: '/v1/ab' })
    expect(recordBytes({ ...base, path: '/v1/中文' })).toBe(ascii + 2 * '/v1/中文'.length)
  })
})
