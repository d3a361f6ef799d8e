import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../helpers/chromium.js'
import { spawnServer } from '../helpers/spawn-server.js'

const harValidator = createRequire(import.meta.url)('har-validator') as { har(data: unknown): Promise<unknown> }

interface Call {
  path: string
  method?: string
  body?: string
}
const calls: Call[] = [
  { path: '/v1/pets?limit=2' },
  { path: '/v1/pets/1' },
  { path: '/v1/pets/999' },
  { path: '/v1/pets', method: 'POST', body: '{"name":"Rex","categoryId":2}' },
  { path: '/v1/pets?status=sold&__code=503' },
]
const headersOf = (call: Call): Record<string, string> => ({
  Authorization: 'Bearer qa-token-123',
  ...(call.body !== undefined && { 'Content-Type': 'application/json' }),
})

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

describe('a HAR from /__admin/requests.har replays in Playwright (routeFromHAR)', () => {
  it('serves the page the recorded statuses and bodies with the mock stopped', async () => {
    const mock = await spawnServer(['--log', 'silent'])
    const recorded: { status: number; text: string }[] = []
    let harText: string
    try {
      for (const call of calls) {
        const res = await fetch(`${mock.url}${call.path}`, {
          method: call.method ?? 'GET',
          headers: headersOf(call),
          ...(call.body !== undefined && { body: call.body }),
        })
        recorded.push({ status: res.status, text: await res.text() })
      }
      harText = await (await fetch(`${mock.url}/__admin/requests.har`)).text()
    } finally {
      expect(await mock.stop()).toBe(0)
    }
    expect(recorded.map((r) => r.status)).toEqual([200, 200, 404, 201, 503])
    await harValidator.har(JSON.parse(harText))
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-har-')), 'session.har')
    writeFileSync(file, harText)

    const context = await browser.newContext()
    try {
      await context.routeFromHAR(file, { notFound: 'abort' })
      // The page itself is not in the HAR: serve it (routes added later win) on the mock's origin, so
      // that its fetches are same-origin, as an app served next to the API would make them.
      await context.route(`${mock.url}/qa.html`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>QA</title>' }),
      )
      const page = await context.newPage()
      await page.goto(`${mock.url}/qa.html`)
      const replayed = await page.evaluate(
        async ({ calls, headers }) => {
          const out: { status: number; text: string }[] = []
          for (const [i, call] of calls.entries()) {
            const res = await fetch(call.path, {
              method: call.method ?? 'GET',
              headers: headers[i],
              ...(call.body !== undefined && { body: call.body }),
            })
            out.push({ status: res.status, text: await res.text() })
          }
          const unknown = await fetch('/v1/pets/12345').then(
            () => 'answered',
            () => 'aborted',
          )
          return { out, unknown }
        },
        { calls, headers: calls.map(headersOf) },
      )
      expect(replayed.out).toEqual(recorded)
      expect(replayed.unknown).toBe('aborted')
    } finally {
      await context.close()
    }
  })
})
