import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../helpers/chromium.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'

// Issue 39: the QA panel, opened with a tenant's token, lists that tenant's sessions and nothing else.
// The server is started as the issue starts examples/tenants/tenants.yaml; team B and the root have
// sessions too.
const tenantsFile = fileURLToPath(new URL('../../examples/tenants/tenants.yaml', import.meta.url))
/** Where the screenshot goes (PANEL_SCREENSHOTS, else a folder of the system's temporary one). */
const shots = process.env['PANEL_SCREENSHOTS'] ?? join(tmpdir(), 'petstore-mock-panel-tenant')

let browser: Browser
let server: SpawnedServer

const admin = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...init.headers } })

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  ;[browser, server] = await Promise.all([
    launchChromium(),
    spawnServer(['--log', 'silent', '--tenants', tenantsFile, '--admin-token', 'root-1', '--max-memory', '64']),
  ])
  for (const name of ['team-a-1', 'team-a-2', 'team-b-1', 'team-b-2', 'team-b-3', 'scratch'])
    expect((await admin(`/__admin/sessions/${name}`, 'root-1', { method: 'POST' })).status).toBe(201)
  // Team B's sessions are used: rules and pets the panel would show if it reached them.
  const rule = JSON.stringify({ operation: 'listPets', status: 503 })
  const json = { 'Content-Type': 'application/json' }
  expect(
    (await admin('/sessions/team-b-1/__admin/faults', 'root-1', { method: 'POST', headers: json, body: rule })).status,
  ).toBe(201)
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('the QA panel with a tenant token', () => {
  it("lists team A's sessions only, with team A's token, while team B has sessions too", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    try {
      const page = await context.newPage()
      const refused: string[] = []
      page.on('response', (res) => res.status() === 403 && refused.push(new URL(res.url()).pathname))
      await page.goto(`${server.url}/sessions/team-a-1/__admin/`)
      const dialog = page.getByRole('dialog', { name: 'Unlock the admin API' })
      await dialog.waitFor()
      await page.getByLabel('Admin token', { exact: true }).fill('adm-a-1')
      await page.getByRole('button', { name: 'Unlock' }).click()
      await dialog.waitFor({ state: 'hidden' })
      await page.getByText('Live', { exact: true }).waitFor({ timeout: 15_000 })

      const picker = page.getByLabel('Session', { exact: true })
      const options = () => picker.locator('option').evaluateAll((list) => list.map((o) => o.textContent ?? ''))
      // The list is the server's (an option shows its sizes once listed; least recently used first).
      const listedNames = async () => {
        const all = await options()
        return all.every((text) => text.includes(' · ')) ? all.map((text) => text.split(' · ')[0]).sort() : []
      }
      await expect.poll(listedNames).toEqual(['team-a-1', 'team-a-2'])
      const text = (await page.locator('body').textContent()) ?? ''
      expect(text).not.toMatch(/team-b|scratch/)
      expect(await picker.inputValue()).toBe('team-a-1')
      const shot = join(shots, 'panel-tenant-team-a.png')
      await page.screenshot({ path: shot })
      // A closed <select> shows one option: the picker's list, opened as a list box, for the eye.
      await picker.evaluate((select) => select.setAttribute('size', String(select.querySelectorAll('option').length)))
      await picker.screenshot({ path: join(shots, 'panel-tenant-picker.png') })
      await picker.evaluate((select) => select.removeAttribute('size'))
      console.log(`screenshot: ${shot}`)
      // Nothing the panel asked for was refused: it asks only for what team A's token reaches.
      expect(refused).toEqual([])

      // The same server lists every session for the root, and team B's for team B.
      const listed = async (token: string) =>
        ((await (await admin('/__admin/sessions', token)).json()) as { sessions: { name: string }[] }).sessions
          .map((s) => s.name)
          .sort()
      expect(await listed('adm-b-1')).toEqual(['team-b-1', 'team-b-2', 'team-b-3'])
      expect(await listed('root-1')).toEqual(
        expect.arrayContaining(['scratch', 'team-a-1', 'team-a-2', 'team-b-1', 'team-b-2', 'team-b-3']),
      )
    } finally {
      await context.close()
    }
  })

  it("works with team A's read-only token too: its sessions listed, its rules read, only the opening refused", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    try {
      const page = await context.newPage()
      const refused: string[] = []
      page.on(
        'response',
        (res) => res.status() === 403 && refused.push(`${res.request().method()} ${new URL(res.url()).pathname}`),
      )
      // A rule in team-a-2, made by team A's write token, for the read token to see.
      const rule = JSON.stringify({ operation: 'getPet', status: 404 })
      const json = { 'Content-Type': 'application/json' }
      expect(
        (await admin('/sessions/team-a-2/__admin/faults', 'adm-a-1', { method: 'POST', headers: json, body: rule }))
          .status,
      ).toBe(201)
      await page.addInitScript(() => sessionStorage.setItem('petstore-mock.admin-token', 'ro-a-1'))
      await page.goto(`${server.url}/sessions/team-a-2/__admin/`)
      await page.getByText('Live', { exact: true }).waitFor({ timeout: 15_000 })
      const picker = page.getByLabel('Session', { exact: true })
      await expect
        .poll(async () =>
          (await picker.locator('option').evaluateAll((list) => list.map((o) => o.textContent ?? '')))
            .map((text) => text.split(' · ')[0])
            .sort()
            .join(' '),
        )
        .toBe('team-a-1 team-a-2')
      await expect.poll(() => page.getByRole('list', { name: 'Active rules' }).textContent()).toContain('getPet')
      const text = (await page.locator('body').textContent()) ?? ''
      expect(text).not.toMatch(/team-b|scratch|read-only/)
      // The panel opens the session it shows (a change): the read token's one refusal, not shown.
      expect([...new Set(refused)]).toEqual(['POST /__admin/sessions/team-a-2'])
      await page.screenshot({ path: join(shots, 'panel-tenant-team-a-read.png') })
    } finally {
      await context.close()
    }
  })
})
