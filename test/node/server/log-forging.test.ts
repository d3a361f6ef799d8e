import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnServer, type SpawnedServer } from '../../helpers/spawn-server.js'

// Issue 40 §2, against the real process: hostile paths must not forge a line, write a raw
// control character or write an unbounded path, in either log format.

/** Sends `path` byte for byte (no client normalises it) and resolves with the status. */
const send = (base: string, path: string, headers: Record<string, string> = {}): Promise<number> =>
  new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
      res.resume()
      res.once('end', () => resolve(res.statusCode ?? 0))
    })
    req.once('error', reject)
    req.end()
  })

const longPath = `/v1/pets/${'a'.repeat(15_000)}`
const longAdminPath = `/__admin/state/${'b'.repeat(15_000)}`

// Every byte the process wrote that a terminal could act on: C0 controls but the line end (and the
// colour codes the pretty format writes itself), DEL, C1.
// eslint-disable-next-line no-control-regex
const rawControls = (text: string) =>
  text.replace(/\x1b\[(?:3[1-3]|0)m/g, '').match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g)

describe.each(['pretty', 'json'] as const)('--log %s', (format) => {
  let server: SpawnedServer
  let fingerprint: string
  let log: string

  beforeAll(async () => {
    server = await spawnServer(['--log', format, '--admin-token', 'root=s3cret-root-token'])
    fingerprint = /sha256:[0-9a-f]+/.exec(server.stderr())?.[0] ?? /sha256:[0-9a-f]+/.exec(server.stdout())?.[0] ?? ''
    const forged = `2026-11-28T17:30:00.000Z INFO admin DELETE /__admin/sessions/team-b-1 … token=${fingerprint} → 204`
    // As the issue sent it: spaces and the arrow encoded, hono decoding the line end.
    const encoded = encodeURI(forged)
    const [outBefore, errBefore] = [server.stdout().length, server.stderr().length]
    const statuses = [
      await send(server.url, `/__admin/state%0A${encoded}`),
      await send(server.url, `/__admin/state%0D%0A${encoded}`),
      await send(server.url, `/__admin/state%0D${encoded}`),
      await send(server.url, `/v1/pets%0A${encoded}`),
      await send(server.url, '/__admin/state%1B[2J%1B[H'),
      await send(server.url, '/v1/pets/%1B[2J%C2%9B31m'),
      await send(server.url, '/__admin/faults', { 'X-Request-Id': 'x' }),
      await send(server.url, longPath),
      await send(server.url, longAdminPath),
    ]
    expect(statuses.every((status) => status >= 200 && status < 500)).toBe(true)
    // The last request's line is written once its answer is: wait for it (bounded).
    for (let i = 0; i < 100 && !(server.stdout() + server.stderr()).includes('bbbbbbbb'); i++) {
      await new Promise((done) => setTimeout(done, 50))
    }
    log = `${server.stdout().slice(outBefore)}\n${server.stderr().slice(errBefore)}`
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
  })

  it('the banner shows the fingerprint the forgery copies', () => {
    expect(fingerprint).toMatch(/^sha256:[0-9a-f]{6,}$/)
  })

  it('writes no forged line: every line it wrote starts as its own lines do', () => {
    const lines = log.split('\n').filter((line) => line !== '')
    expect(lines.length).toBeGreaterThanOrEqual(9)
    for (const line of lines) {
      if (format === 'json') expect(() => JSON.parse(line) as unknown, line.slice(0, 200)).not.toThrow()
      expect(line.slice(0, 200)).not.toMatch(/^2026-11-28T17:30:00/)
      expect(line.slice(0, 200)).not.toMatch(/^[\s\r]*"?2026-11-28T17:30:00/)
    }
    expect(log).not.toMatch(/\n2026-11-28T17:30:00\.000Z INFO admin DELETE/)
    expect(log).not.toMatch(/\r2026-11-28T17:30:00\.000Z/)
  })

  it('writes no raw control character', () => {
    expect(rawControls(log)).toBeNull()
    expect(log).toContain(format === 'json' ? '\\u001b[2J' : '\\u001b[2J')
  })

  it('bounds a long path: 256 characters, an ellipsis and the original length', () => {
    expect(log).toContain(`${'a'.repeat(200)}…[${longPath.length} chars]`)
    expect(log).not.toContain('a'.repeat(257))
    expect(log).not.toContain('b'.repeat(257))
    // Nine requests, two of them of 15 KB: the log stays far below one such path.
    expect(log.length).toBeLessThan(15_000)
  })
})
