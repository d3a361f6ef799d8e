import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../helpers/chromium.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'

let browser: Browser
let server: SpawnedServer

beforeAll(async () => {
  browser = await launchChromium()
  server = await spawnServer()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('headless Chromium', () => {
  it('reaches the mock on 127.0.0.1 and reads the contract', async () => {
    const page = await browser.newPage()
    await page.goto(`${server.url}/openapi.json`)
    const title = await page.evaluate(async () => (await (await fetch('/openapi.json')).json()).info.title)
    expect(title).toBe('Pet Store')
    await page.close()
  })
})
