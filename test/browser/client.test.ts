import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as ClientModule from '../../src/client/index.js'
import { harnessArgs, launchChromium, openHarness } from '../helpers/chromium.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'

declare global {
  // The IIFE bundle's global, in the page.
  var petstoreMockClient: typeof ClientModule
}

let browser: Browser
let page: SpawnedServer
let mock: SpawnedServer
let bundle: string

beforeAll(async () => {
  const built = await build({
    entryPoints: [fileURLToPath(new URL('../../src/client/index.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'petstoreMockClient',
    write: false,
    logLevel: 'silent',
  })
  bundle = built.outputFiles[0]!.text
  browser = await launchChromium(harnessArgs)
  // The page comes from one server, the mock under control is another origin: CORS for real. The
  // admin guard refuses pages of other origins unless named with --admin-cors-origin.
  page = await spawnServer(['--log', 'silent'])
  mock = await spawnServer(['--log', 'silent', '--admin-token', 'adm', '--admin-cors-origin', page.url])
})
afterAll(async () => {
  await browser?.close()
  await page?.stop()
  await mock?.stop()
})

describe('petstore-mock/client in headless Chromium', () => {
  it('drives another origin: faults, waitFor, sessions, MockAdminError', async () => {
    const tab = await browser.newPage()
    await openHarness(tab, page.url)
    await tab.addScriptTag({ content: bundle })
    const result = await tab.evaluate(async (baseUrl) => {
      const { createMockClient, MockAdminError } = globalThis.petstoreMockClient
      const client = createMockClient({ baseUrl, adminToken: 'adm', session: 'browser' })
      const rule = await client.faults.add({ operation: 'getPet', status: 503, times: 1 })
      const waiting = client.requests.waitFor({ operation: 'getPet', status: 503 }, { timeoutMs: 3000 })
      const api = await fetch(`${baseUrl}/v1/pets/1`, {
        headers: { Authorization: 'Bearer t', 'X-Mock-Session': 'browser' },
      })
      const seen = await waiting
      const denied = await createMockClient({ baseUrl, adminToken: 'wrong' })
        .faults.list()
        .catch((error: unknown) => error)
      const sessions = (await client.sessions.list()).map((s) => s.name)
      await client.sessions.delete('browser')
      return {
        rule,
        apiStatus: api.status,
        seen: { path: seen.path, status: seen.status },
        denied: denied instanceof MockAdminError ? { status: denied.status, code: denied.code } : String(denied),
        sessions,
        after: (await client.withSession('other').sessions.list()).map((s) => s.name),
      }
    }, mock.url)
    expect(result).toEqual({
      rule: { id: 1, operation: 'getPet', status: 503, times: 1, remaining: 1 },
      apiStatus: 503,
      seen: { path: '/v1/pets/1', status: 503 },
      denied: { status: 401, code: 'unauthorized' },
      sessions: ['default', 'browser'],
      after: ['default'],
    })
    await tab.close()
  })
})
