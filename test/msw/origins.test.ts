import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createHandlers, PetstoreMockError } from '../../src/msw/index.js'
import { auth } from '../helpers/contract.js'

// Which origins createHandlers() answers in Node, where there is no page: those named, and none
// unless named (issue 27: an app that calls several /v1 APIs had its unmocked calls answered by the
// mock's 404 and its fixture pets, and journaled). With a page: test/msw/origins-page.test.ts and
// the browser suite.

const unhandled: string[] = []
const server = setupServer()
beforeAll(() =>
  server.listen({
    // Recorded, then msw's 'error': fetch rejects, and nothing leaves the process.
    onUnhandledFrame: ({ frame, defaults }) => {
      unhandled.push((frame.data as { request: Request }).request.url)
      defaults.error()
    },
  }),
)
afterEach(() => {
  server.resetHandlers()
  unhandled.length = 0
})
afterAll(() => server.close())

/** fetch, a network error (msw's for an unhandled request it could not bypass) as its message. */
const call = (url: string, init?: RequestInit) =>
  fetch(url, init).then(
    (res) => res.status,
    (error: Error) => error.message,
  )

describe('createHandlers() in Node (no page)', () => {
  it('without origins, throws a PetstoreMockError that says to name them', () => {
    expect('location' in globalThis).toBe(false)
    expect(() => createHandlers()).toThrow(PetstoreMockError)
    expect(() => createHandlers({ apiKeys: ['k'] })).toThrow(
      "petstore-mock/msw: there is no page here (no location.origin), so name the origins whose requests the mock answers: createHandlers({ origins: ['https://api.example.com'] }), or origins: 'any' for every origin",
    )
    expect(() => createHandlers({ origins: [] })).toThrow('there is no page here')
  })

  it("answers the origins named, and leaves other origins' /v1 to msw, unjournaled", async () => {
    const petstore = createHandlers({ origins: ['https://api.example.com', 'http://localhost:4010/v1'] })
    server.use(...petstore)
    expect(await call('https://api.example.com/v1/pets', { headers: auth() })).toBe(200)
    expect(await call('http://localhost:4010/v1/pets/1', { headers: auth() })).toBe(200)
    expect(await call('http://localhost:4010/__admin/health')).toBe(200)
    // The two calls: another API's token endpoint and another API's own /v1/pets.
    expect(await call('https://auth.example.com/v1/token', { method: 'POST' })).not.toBe(404)
    expect(await call('https://users.example.com/v1/pets')).not.toBe(200)
    expect(await call('http://localhost:4011/v1/pets')).not.toBe(200)
    expect(unhandled).toEqual([
      'https://auth.example.com/v1/token',
      'https://users.example.com/v1/pets',
      'http://localhost:4011/v1/pets',
    ])
    expect((await petstore.journal()).map((entry) => entry.path)).toEqual(['/v1/pets/1', '/v1/pets'])
  })

  it("origins: 'any' answers every origin (the earlier default)", async () => {
    server.use(...createHandlers({ origins: 'any' }))
    expect(await call('https://users.example.com/v1/pets', { headers: auth() })).toBe(200)
    expect(unhandled).toEqual([])
  })

  it('baseUrl is one more origin; a bad origin is named', () => {
    expect(() => createHandlers({ baseUrl: 'https://api.example.com' })).not.toThrow()
    expect(() => createHandlers({ origins: ['api.example.com'] })).toThrow(
      'petstore-mock/msw: origins: entry 0 must be an absolute URL such as http://localhost:4010 (got "api.example.com")',
    )
    expect(() => createHandlers({ origins: ['https://a.test', 'https://b.test/api'] })).toThrow(
      'petstore-mock/msw: origins: entry 1 must be an origin such as http://localhost:4010, optionally followed by /v1',
    )
    expect(() => createHandlers({ origins: 'some' as never })).toThrow(
      `petstore-mock/msw: origins must be an array of origins such as ['https://api.example.com'], or 'any' (got "some")`,
    )
  })
})
