import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { harnessArgs, launchChromium, openHarness } from '../helpers/chromium.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'

let browser: Browser
let server: SpawnedServer

beforeAll(async () => {
  browser = await launchChromium(harnessArgs)
  server = await spawnServer()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('headless Chromium', () => {
  it('reaches the mock on 127.0.0.1 and reads the contract', async () => {
    const page = await browser.newPage()
    await openHarness(page, server.url)
    const title = await page.evaluate(async () => (await (await fetch('/openapi.json')).json()).info.title)
    expect(title).toBe('Pet Store')
    await page.close()
  })

  it('from a page on another origin, runs a preflighted create and reads only what CORS exposes', async () => {
    const page = await browser.newPage()
    // localhost and 127.0.0.1 are two origins to the browser: every call below is cross-origin.
    await openHarness(page, server.url.replace('127.0.0.1', 'localhost'))
    const seen = await page.evaluate(async (api) => {
      const res = await fetch(`${api}/v1/pets`, {
        method: 'POST',
        headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json', 'X-Mock-Session': 'chromium' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      })
      const body = (await res.json()) as { id: number; name: string }
      // Location is readable from script only because the policy exposes it.
      return { status: res.status, location: res.headers.get('Location'), name: body.name, id: body.id }
    }, server.url)
    expect(seen).toMatchObject({ status: 201, name: 'Rex' })
    expect(seen.location).toBe(`/v1/pets/${seen.id}`)
    // Preflights are not journaled; the create is, with the page's Origin.
    const journal = await fetch(`${server.url}/__admin/requests`, { headers: { 'X-Mock-Session': 'chromium' } })
    const { requests } = (await journal.json()) as {
      requests: { method: string; status: number; headers: Record<string, string> }[]
    }
    expect(requests.map(({ method, status }) => ({ method, status }))).toEqual([{ method: 'POST', status: 201 }])
    expect(requests[0]!.headers['origin']).toBe(server.url.replace('127.0.0.1', 'localhost'))
    await page.close()
  })

  it('a page on another origin cannot read an answer whose origin the policy refuses', async () => {
    const page = await browser.newPage()
    await openHarness(page, server.url.replace('127.0.0.1', 'localhost'))
    // /__admin allows no other origin by default: the browser blocks the answer, fetch rejects.
    const outcome = await page.evaluate(
      async (api) =>
        fetch(`${api}/__admin/health`).then(
          (res) => `read ${res.status}`,
          (error: Error) => `blocked: ${error.name}`,
        ),
      server.url,
    )
    expect(outcome).toBe('blocked: TypeError')
    await page.close()
  })
})
