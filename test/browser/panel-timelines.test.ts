import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../helpers/chromium.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'
import { stagingIncident } from '../helpers/timeline-scenario.js'

// Issue 43: the QA panel draws the session's timelines on a time axis with the clock's now, the phase in
// force highlighted, and starts a preset and stops a timeline.
/** Where the screenshot goes (PANEL_SCREENSHOTS, else a folder of the system's temporary one). */
const shots = process.env['PANEL_SCREENSHOTS'] ?? join(tmpdir(), 'petstore-mock-panel-timelines')

let browser: Browser
let server: SpawnedServer

const admin = (path: string, method = 'GET', body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-Mock-Session': 'incident' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  ;[browser, server] = await Promise.all([launchChromium(), spawnServer(['--log', 'silent'])])
  expect((await admin('/__admin/clock', 'PUT', { now: '2030-01-01T00:00:00Z', frozen: true })).status).toBe(200)
  expect((await admin('/__admin/timelines/staging-incident', 'PUT', stagingIncident)).status).toBe(201)
  expect((await admin('/__admin/timelines/flaky', 'PUT', { preset: 'flapping' })).status).toBe(201)
  // 45 s on: the incident's 429 phase; the flapping timeline (20 s up, 10 s down, looping) up again in its second loop.
  expect((await admin('/__admin/clock', 'PUT', { now: '2030-01-01T00:00:45Z', frozen: true })).status).toBe(200)
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('the QA panel’s timelines', () => {
  it('shows each timeline on a time axis with the clock’s now and the phase in force; a preset starts, Stop removes (1280 px)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    try {
      const page = await context.newPage()
      await page.goto(`${server.url}/sessions/incident/__admin/`)
      const list = page.getByRole('list', { name: 'Timelines' })
      await list.waitFor({ timeout: 15_000 })
      const incident = page.getByRole('list', { name: 'Phases of staging-incident' })
      const phases = incident.getByRole('listitem')
      expect(await phases.count()).toBe(4)
      const current = incident.locator('[aria-current="step"]')
      expect(await current.getAttribute('title')).toBe('Phase 1: 30s · 429')
      expect(await page.getByTestId('timelines-now').textContent()).toBe('Clock: 2030-01-01 00:00:45Z')
      // The now line sits in the 429 phase (the second quarter of the 120 s before "forever").
      const box = async (locator: ReturnType<typeof page.locator>) => (await locator.boundingBox())!
      const now = await box(incident.getByLabel("The clock's now"))
      const inForce = await box(current)
      expect(now.x).toBeGreaterThan(inForce.x)
      expect(now.x).toBeLessThan(inForce.x + inForce.width)
      await expect
        .poll(() => page.getByText('Phase 1 since 2030-01-01 00:00:30Z; next at 2030-01-01 00:01:00Z').count())
        .toBe(1)
      const flaky = page.getByRole('list', { name: 'Phases of flaky' })
      expect(await flaky.locator('[aria-current="step"]').getAttribute('title')).toBe('Phase 0: 20s · quiet')

      // The picker starts a preset under a name; Stop removes a timeline.
      await page.getByLabel('Preset', { exact: true }).selectOption('getpet-brownout')
      await page.getByLabel('Name', { exact: true }).fill('brownout')
      await page.getByRole('button', { name: 'Start' }).click()
      await page.getByRole('list', { name: 'Phases of brownout' }).waitFor()
      await page.getByText('Starts at 2030-11-20 17:00:00Z').waitFor()
      const shot = join(shots, 'panel-timelines-1280.png')
      await page.locator('#timelines-title').scrollIntoViewIfNeeded()
      await page.screenshot({ path: shot })
      await page
        .locator('section[aria-labelledby="timelines-title"]')
        .screenshot({ path: join(shots, 'panel-timelines-card.png') })
      console.log(`screenshot: ${shot}`)
      await page.getByRole('button', { name: 'Stop timeline flaky' }).click()
      await page.getByRole('list', { name: 'Phases of flaky' }).waitFor({ state: 'detached' })
      const listed = (await (await admin('/__admin/timelines')).json()) as { timelines: { name: string }[] }
      expect(listed.timelines.map((t) => t.name)).toEqual(['staging-incident', 'brownout'])
    } finally {
      await context.close()
    }
  })
})
