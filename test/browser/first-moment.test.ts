import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixturePets } from '../../src/generated/contract.js'
import { launchChromium } from '../helpers/chromium.js'
import { buildConsumerSite, type ConsumerSite, loadConsumerPage, loadPageStart } from '../helpers/consumer-page.js'
import { serveDirectory } from '../helpers/serve-directory.js'

/**
 * createHandlers()'s first call at page start, in a consumer app bundled from the packed package. What
 * made it slow (6 to 12 ms of 30: a stack formatted for msw's call frame, which makes V8 parse the whole
 * entry chunk again, and the mock made in the call) is shown not to happen, in a page loaded with no
 * DevTools protocol attached (see loadPageStart): the call formats no stack (V8 asks
 * Error.prepareStackTrace for none with frames; msw alone does, for contrast) and leaves the making to
 * an idle callback (test/msw/first-call.test.ts checks that path in detail). Its time, beside the
 * page's module evaluation, is reported by `npm run size` (tools/bench/size.ts), not asserted: on a
 * shared 2-core machine a page's figures range over 5× and more with the other work (issue 27 §3).
 */
let browser: Browser
let site: ConsumerSite
let server: Awaited<ReturnType<typeof serveDirectory>>

beforeAll(async () => {
  ;[browser, site] = await Promise.all([launchChromium(), buildConsumerSite()])
  server = await serveDirectory(site.dir)
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
  site?.remove()
})

describe('the first moment of a consumer app (bundled from the packed package, headless Chromium)', () => {
  it('answers its first request through the Service Worker, as msw alone does in the same page', async () => {
    const app = await loadConsumerPage(browser, server.url, 'app')
    expect(app.status).toBe(200)
    expect(JSON.parse(app.body)).toEqual([fixturePets[0]])
    const baseline = await loadConsumerPage(browser, server.url, 'baseline')
    expect([baseline.status, baseline.body]).toEqual([200, '[]'])
    console.log(
      `to the first answer (DevTools protocol attached): createHandlers() ${app.toFirstAnswerMs.toFixed(1)} ms, ` +
        `msw alone ${baseline.toFirstAnswerMs.toFixed(1)} ms`,
    )
  })

  it('creates the handlers at module evaluation formatting no stack, and leaves making the mock to an idle callback', async () => {
    const baseline = await loadPageStart(server.url, 'baseline')
    const app = await loadPageStart(server.url, 'app')
    expect(baseline.during.stacksFormatted).toBeGreaterThan(0)
    expect(app.during).toEqual({ stacksFormatted: 0, idleCallbacks: 1, callFrame: null })
    console.log(
      `page start: createHandlers() ${app.createMs.toFixed(1)} ms, its page's modules ${app.importMs.toFixed(1)} ms ` +
        `(one page; npm run size reports the median of fresh pages against the 30 ms budget)`,
    )
  }, 60_000)
})
