import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect } from 'vitest'
import { createHandlers, type HandlersOptions } from '../../src/msw/index.js'
import { type SpawnedServer, spawnServer } from './spawn-server.js'

/** An answer as a table row states it: what Node's HTTP layer adds on the wire is left out. */
export interface Answer {
  status: number
  headers: [string, string][]
  body: string
}

/** One host of the mock: `fetch(path, init)` reaches it. */
export interface Host {
  name: 'server' | 'msw'
  fetch(path: string, init?: RequestInit): Promise<Response>
  /** The server's origin (for raw sockets); undefined on msw. */
  url(): string | undefined
}

// Added by Node's HTTP layer, written by no handler; Content-Length is checked against the body instead.
const wireOnly = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'])

// Different on every request unless the caller sends one (log/request-id.ts); its own tests check it.
const perRequest = new Set(['x-request-id'])

/** The answer without the wire-only headers, its Content-Length (when sent) checked against the body. */
export const answerOf = async (res: Response): Promise<Answer> => {
  const body = await res.text()
  const length = res.headers.get('content-length')
  if (length !== null) expect(Number(length)).toBe(Buffer.byteLength(body))
  return {
    status: res.status,
    headers: [...res.headers].filter(([name]) => !wireOnly.has(name) && !perRequest.has(name)),
    body,
  }
}

const mswOrigin = 'http://petstore.test'

/**
 * The same mock twice for one test file: the built CLI spawned with `args`, and
 * msw's setupServer with `options` (the same settings as data). Tests run their
 * table on each of {@link Host}.
 */
export const useBothHosts = (args: string[], options: HandlersOptions): Host[] => {
  let server: SpawnedServer | undefined
  const msw = setupServer(...createHandlers({ ...options, baseUrl: mswOrigin }))
  beforeAll(async () => {
    server = await spawnServer(['--log', 'silent', ...args])
    // Requests to the spawned server are not msw's: they pass through.
    msw.listen({ onUnhandledFrame: 'bypass' })
  })
  afterAll(async () => {
    msw.close()
    await server?.stop()
  })
  return [
    { name: 'server', fetch: (path, init) => fetch(`${server!.url}${path}`, init), url: () => server?.url },
    { name: 'msw', fetch: (path, init) => fetch(`${mswOrigin}${path}`, init), url: () => undefined },
  ]
}
