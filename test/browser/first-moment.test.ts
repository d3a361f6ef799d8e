import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixturePets } from '../../src/generated/contract.js'
import { launchChromium } from '../helpers/chromium.js'
import { buildConsumerSite, type ConsumerSite, measureFirstMoment, median } from '../helpers/consumer-page.js'
import { serveDirectory } from '../helpers/msw-page.js'

/**
 * The first createHandlers() call at page start, in a consumer app bundled from the packed package,
 * against msw's own first answer (a one-line handler) in the same kind of page, median of `runs`
 * loads of each, taken in turn. A ratio, not milliseconds: on this shared 2-core machine a single
 * page's figures range over 5× with the other work, and both the call and msw's first answer are
 * first runs of cold code on the page's main thread, which that work slows alike. The bound: msw's
 * first answer takes about 20 ms on a quiet machine, so 0.25 is about 5 ms, a sixth of the issue's
 * 30 ms budget; making the mock in the call (before it waited for its first use) measured 0.4 to
 * 0.7 here, and the call now about 0.1 (HANDOFF.md, figures).
 */
const maxRatio = 0.25
const runs = 7

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
  it(`creates the handlers at module evaluation within ${maxRatio}× msw's own first answer, and answers`, async () => {
    const { app, baseline } = await measureFirstMoment(browser, server.url, runs)
    for (const page of app) {
      expect(page.status).toBe(200)
      expect(JSON.parse(page.body)).toEqual([fixturePets[0]])
    }
    const figure = (values: number[]) => `${median(values).toFixed(1)} ms`
    const call = median(app.map((p) => p.createMs))
    const msw = median(baseline.map((p) => p.firstRequestMs))
    console.log(
      `first moment, median of ${runs}: createHandlers() ${call.toFixed(1)} ms, msw's first answer ${msw.toFixed(1)} ms ` +
        `(ratio ${(call / msw).toFixed(2)}, at most ${maxRatio}); to the first answer ${figure(app.map((p) => p.toFirstAnswerMs))}, ` +
        `msw alone ${figure(baseline.map((p) => p.toFirstAnswerMs))}`,
    )
    expect(call / msw).toBeLessThanOrEqual(maxRatio)
  })
})
