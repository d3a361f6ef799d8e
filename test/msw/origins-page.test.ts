import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHandlers } from '../../src/msw/index.js'
import { bearer } from '../helpers/auth.js'

// Where there is a page (location.origin: a browser, happy-dom, jsdom; stubbed here, so that Node's
// fetch, which msw intercepts with no CORS of its own, makes the calls): createHandlers() answers
// the page's own origin by default, and the origins named besides; not another origin's /v1. The
// browser suite checks the same in Chromium (test/browser/msw.test.ts).

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
afterAll(() => {
  server.close()
  vi.unstubAllGlobals()
})

const call = (url: string) =>
  fetch(url, { headers: bearer('k') }).then(
    (res) => res.status,
    (error: Error) => error.message,
  )

describe('createHandlers() with a page', () => {
  it("answers the page's origin by default, not another origin's /v1", async () => {
    vi.stubGlobal('location', new URL('http://localhost:5173/app/'))
    const petstore = createHandlers()
    server.resetHandlers(...petstore)
    unhandled.length = 0
    expect(await call('http://localhost:5173/v1/pets')).toBe(200)
    expect(await call('https://users.example.com/v1/pets')).not.toBe(200)
    expect(unhandled).toEqual(['https://users.example.com/v1/pets'])
    expect(await petstore.journal()).toHaveLength(1)
  })

  it('answers the origins named as well as the page', async () => {
    vi.stubGlobal('location', new URL('http://localhost:5173/app/'))
    server.resetHandlers(...createHandlers({ origins: ['https://api.example.com'] }))
    unhandled.length = 0
    expect(await call('http://localhost:5173/v1/pets')).toBe(200)
    expect(await call('https://api.example.com/v1/pets')).toBe(200)
    expect(await call('https://users.example.com/v1/pets')).not.toBe(200)
    expect(unhandled).toEqual(['https://users.example.com/v1/pets'])
  })
})
