import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixturePets } from '../../src/generated/contract.js'
import { launchChromium } from '../helpers/chromium.js'
import {
  buildConsumerSite,
  type ConsumerSite,
  loadConsumerPage,
  loadPageStart,
  median,
  type PageStart,
} from '../helpers/consumer-page.js'
import { serveDirectory } from '../helpers/serve-directory.js'

/**
 * createHandlers()'s first call at page start, in a consumer app bundled from the packed package,
 * against the evaluation of the modules that page imports (msw's and petstore-mock's) just before
 * it, in the same page: the median over `runs` page starts, each in a Chromium of its own with no
 * DevTools protocol attached (see loadPageStart), of the call's time over the import's.
 *
 * A ratio, not milliseconds: on this shared 2-core machine a page's figures range over 5× and more
 * with the other work, and both sides are first runs of cold code on the page's main thread, one
 * right after the other, which that work slows alike. The bound: the import takes about 10 ms on a
 * quiet machine, so 0.8 is about 8 ms, a quarter of the issue's 30 ms budget. Before (the mock made
 * in the call, and a stack formatted there by msw) the median ratio measured 1.26 to 2.1 here; now
 * 0.18 to 0.49 (HANDOFF.md: figures): the bound sits between the two, 1.6× from either.
 */
const maxRatio = 0.8
const runs = 11

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

  it(`creates the handlers at module evaluation within ${maxRatio}× the page's module evaluation`, async () => {
    const app: PageStart[] = []
    for (let i = 0; i < runs; i++) app.push(await loadPageStart(server.url, 'app'))
    const ms = (values: number[]) => `${median(values).toFixed(1)} ms`
    const ratio = median(app.map((p) => p.createMs / p.importMs))
    console.log(
      `page start, median of ${runs}: createHandlers() ${ms(app.map((p) => p.createMs))}, ` +
        `its page's modules ${ms(app.map((p) => p.importMs))} (ratio ${ratio.toFixed(2)}, at most ${maxRatio})`,
    )
    expect(ratio).toBeLessThanOrEqual(maxRatio)
  }, 180_000)
})
