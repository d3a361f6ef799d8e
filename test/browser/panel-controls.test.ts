import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { launchChromium } from '../helpers/chromium.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'

// Issue 32: the QA panel does what the API does: rules with an answer of their own and a target
// client, reproduction bundles loaded by file picker or drop, the clock and the rate limit, the edge
// data profile; answers beyond the contract flagged. Driven in Chromium through accessible names.
let browser: Browser
let server: SpawnedServer

beforeAll(async () => {
  ;[browser, server] = await Promise.all([launchChromium(), spawnServer(['--log', 'silent'])])
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})
beforeEach(async () => {
  await call('/__admin/reset', { method: 'POST' })
})

const call = (path: string, init: RequestInit & { session?: string } = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: {
      Authorization: 'Bearer qa-token-1234567890',
      'Content-Type': 'application/json',
      ...(init.session && { 'X-Mock-Session': init.session }),
      ...(init.headers as Record<string, string>),
    },
  })
const json = async <T>(path: string, init?: RequestInit & { session?: string }) =>
  (await (await call(path, init)).json()) as T

const openPanel = async (): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.goto(`${server.url}/__admin/`)
  await page.getByText('Live', { exact: true }).waitFor({ timeout: 5000 })
  return page
}
// What the panel shows after an action: on a busy machine the first YAML read (a worker thread) or
// faker import of a fresh server takes seconds.
const slow = { timeout: 10_000 }
const rows = (page: Page) => page.getByRole('table', { name: 'Requests' }).locator('tbody tr:has(button)')
const total = (page: Page) =>
  page.getByLabel('Pets by status').locator('div').filter({ hasText: 'Total' }).getByRole('definition')
const alertIn = (page: Page, card: string) => page.getByRole('region', { name: card }).getByRole('alert')

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const audit = async (page: Page) => {
  await page.evaluate(await axeSource)
  return page.evaluate(async () => {
    type Result = { violations: { id: string; nodes: { target: string[] }[] }[] }
    const { axe } = globalThis as unknown as { axe: { run(options: object): Promise<Result> } }
    const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
    const result = await axe.run({ runOnly: { type: 'tag', values: tags } })
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  })
}

describe('QA panel: what the API does, in Chromium', () => {
  it('builds a rule with an answer of its own for one client; refused without the mark, in the server’s words; flagged', async () => {
    const page = await openPanel()
    await page.getByLabel('Operation', { exact: true }).selectOption('listPets')
    await page.getByLabel('Status', { exact: true }).fill('502')
    await page.getByText('Answer of its own').click()
    await page.getByLabel('Answer headers (Name: value a line)').fill('Content-Type: text/html')
    await page.getByLabel('Answer body', { exact: true }).fill('<h1>502 Bad Gateway</h1>')
    await page.getByText('Target one client').click()
    await page.getByLabel('Request headers (Name: value a line)').fill('User-Agent: mobile-app/1.0')
    await page.getByRole('button', { name: 'Add rule' }).click()
    await expect
      .poll(() => alertIn(page, 'Fault rules').textContent(), slow)
      .toBe(
        'This answer breaks the contract (listPets: 502 body is Content-Type text/html, an error is application/json Error); to send it anyway, mark the rule breaksContract: true.',
      )
    expect(await json('/__admin/faults')).toEqual({ faults: [] })
    await page.getByLabel('Beyond the contract (breaksContract): flagged wherever it is shown').check()
    await page.getByRole('button', { name: 'Add rule' }).click()
    const ruleList = page.getByRole('list', { name: 'Active rules' })
    await expect
      .poll(() => ruleList.textContent(), slow)
      .toContain('listPets answers 502 (own answer, text/html, beyond the contract) when user-agent: mobile-app/1.0')
    expect(await json('/__admin/faults')).toEqual({
      faults: [
        {
          id: 1,
          operation: 'listPets',
          status: 502,
          headers: { 'Content-Type': 'text/html' },
          body: '<h1>502 Bad Gateway</h1>',
          breaksContract: true,
          when: { headers: { 'User-Agent': 'mobile-app/1.0' } },
        },
      ],
    })

    const mobile = await call('/v1/pets', { headers: { 'User-Agent': 'mobile-app/1.0' } })
    expect([mobile.status, await mobile.text()]).toEqual([502, '<h1>502 Bad Gateway</h1>'])
    expect((await call('/v1/pets')).status).toBe(200)
    await expect.poll(() => rows(page).count(), slow).toBe(2)
    const flagged = rows(page).nth(1)
    await expect
      .poll(() => flagged.getByRole('cell').nth(6).textContent(), slow)
      .toBe('rule 1: 502, own answer, beyond the contract')
    await flagged.getByRole('button').click()
    const details = page.locator('#request-details')
    await expect
      .poll(() => details.getByRole('note').textContent(), slow)
      .toBe("Beyond the contract: rule 1 sent this answer, marked breaksContract. It is not the provider's behaviour.")
    await expect.poll(() => details.textContent(), slow).toContain('API key fingerprint')
    await expect.poll(() => page.getByLabel('Response body').textContent(), slow).toBe('<h1>502 Bad Gateway</h1>')
    expect(await audit(page)).toEqual([])
    await page.close()
  })

  it('sends a JSON answer body as typed, and targets a key by fingerprint and a body field', async () => {
    const page = await openPanel()
    await page.getByLabel('Operation', { exact: true }).selectOption('createPet')
    await page.getByLabel('Status', { exact: true }).fill('400')
    await page.getByText('Answer of its own').click()
    await page.getByLabel('Body is').selectOption('json')
    await page
      .getByLabel('Answer body', { exact: true })
      .fill('{"code": "duplicate_name", "message": "Rex exists.", "status": 400}')
    await page.getByText('Target one client').click()
    await page.getByLabel('API key', { exact: true }).fill('sha256:4c5dc9b77089')
    await page.getByLabel('Given as').selectOption('fingerprint')
    await page.getByLabel('Body fields (name: value a line)').fill('name: Rex')
    await page.getByRole('button', { name: 'Add rule' }).click()
    await expect
      .poll(async () => (await json<{ faults: unknown[] }>('/__admin/faults')).faults, slow)
      .toEqual([
        {
          id: 1,
          operation: 'createPet',
          status: 400,
          body: { code: 'duplicate_name', message: 'Rex exists.', status: 400 },
          when: { apiKey: { fingerprint: 'sha256:4c5dc9b77089' }, body: { name: 'Rex' } },
        },
      ])
    const create = (token: string, name: string) =>
      fetch(`${server.url}/v1/pets`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, categoryId: 1 }),
      })
    expect((await create('test-token', 'Rex')).status).toBe(400)
    expect((await create('test-token', 'Bo')).status).toBe(201)
    expect((await create('other-token', 'Rex')).status).toBe(201)
    await page.close()
  })

  it('loads a reproduction bundle by file picker (snapshot and HAR chosen together) and by drop', async () => {
    // A bundle made in another session: its snapshot (YAML) and its HAR.
    await call('/__admin/state', {
      method: 'PUT',
      session: 'staging',
      body: JSON.stringify({ pets: [{ id: 7, name: 'Zoë', categoryId: 9007199254740991 }] }),
    })
    await call('/__admin/faults', {
      method: 'POST',
      session: 'staging',
      body: JSON.stringify({ operation: 'getPet', status: 404, times: 2 }),
    })
    await call('/__admin/clock', {
      method: 'PUT',
      session: 'staging',
      body: '{"now":"2031-01-01T00:00:00Z","frozen":true}',
    })
    const yaml = await (await call('/__admin/snapshot', { session: 'staging' })).text()
    const har = await (await call('/__admin/requests.har', { session: 'staging' })).text()

    const page = await openPanel()
    await expect.poll(() => total(page).textContent(), slow).toBe('12')
    await page.getByLabel('Load a reproduction bundle (its .snapshot.yaml or .json)').setInputFiles([
      { name: 'petstore-mock-staging-20310101T000000Z.har', mimeType: 'application/json', buffer: Buffer.from(har) },
      {
        name: 'petstore-mock-staging-20310101T000000Z.snapshot.yaml',
        mimeType: 'application/yaml',
        buffer: Buffer.from(yaml),
      },
    ])
    await expect.poll(() => total(page).textContent(), slow).toBe('1')
    await expect
      .poll(() => page.getByRole('list', { name: 'Active rules' }).textContent(), slow)
      .toContain('getPet answers 404')
    await expect.poll(() => page.getByTestId('clock-now').textContent(), slow).toBe('2031-01-01T00:00:00.000Z, frozen')
    expect(await json('/__admin/state')).toEqual({ pets: [{ id: 7, name: 'Zoë', categoryId: 9007199254740991 }] })

    // Dropped: a JSON snapshot, onto the drop area.
    await call('/__admin/reset', { method: 'POST' })
    const snapshot = JSON.stringify({ format: 1, pets: [{ id: 3, name: 'Dropped', categoryId: 2 }] })
    const dataTransfer = await page.evaluateHandle((text) => {
      const { DataTransfer, File } = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } }
        File: new (parts: string[], name: string, options: object) => unknown
      }
      const transfer = new DataTransfer()
      transfer.items.add(new File([text], 'bug-42.snapshot.json', { type: 'application/json' }))
      return transfer
    }, snapshot)
    await page.locator('.dropzone').dispatchEvent('dragover', { dataTransfer })
    await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer })
    await expect
      .poll(async () => json('/__admin/state'), slow)
      .toEqual({ pets: [{ id: 3, name: 'Dropped', categoryId: 2 }] })
    await expect
      .poll(() => page.getByRole('status').textContent(), slow)
      .toContain('Bundle loaded from bug-42.snapshot.json')

    // A bad one: the server's words, nothing changed.
    await page.getByLabel('Load a reproduction bundle (its .snapshot.yaml or .json)').setInputFiles({
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"format":2,"pets":[]}'),
    })
    await expect.poll(() => alertIn(page, 'State').textContent(), slow).toBe('format must be one of 1.')
    expect(await json('/__admin/state')).toEqual({ pets: [{ id: 3, name: 'Dropped', categoryId: 2 }] })
    await page.close()
  })

  it('sets the clock (frozen, past the sunset: getPet answers 410) and back to real time; sets and lifts a rate limit', async () => {
    const page = await openPanel()
    await page.getByLabel('Clock at (ISO 8601)').fill('2031-01-01T00:00:00Z')
    await page.getByLabel('Frozen', { exact: true }).check()
    await page.getByRole('button', { name: 'Set clock' }).click()
    await expect.poll(() => page.getByTestId('clock-now').textContent(), slow).toBe('2031-01-01T00:00:00.000Z, frozen')
    expect(await json('/__admin/clock')).toEqual({ now: '2031-01-01T00:00:00.000Z', frozen: true, real: false })
    expect((await call('/v1/pets/1')).status).toBe(410)
    await page.getByRole('button', { name: 'Real time' }).click()
    await expect.poll(() => page.getByTestId('clock-now').textContent(), slow).toBe('Real time')
    expect((await call('/v1/pets/1')).status).toBe(200)
    await page.getByLabel('Clock at (ISO 8601)').fill('soon')
    await page.getByRole('button', { name: 'Set clock' }).click()
    await expect
      .poll(() => alertIn(page, 'Clock and rate limit').textContent(), slow)
      .toMatch(/^now must be an ISO 8601 instant/)

    await page.getByLabel('Rate limit (n/s, n/m, n/h)').fill('2/m')
    await page.getByRole('button', { name: 'Set limit' }).click()
    await expect.poll(() => page.getByTestId('rate-limit').textContent(), slow).toBe('2/m per API key, 0 keys counted')
    expect([(await call('/v1/pets')).status, (await call('/v1/pets')).status, (await call('/v1/pets')).status]).toEqual(
      [200, 200, 429],
    )
    await page.getByRole('button', { name: 'No limit' }).click()
    await expect.poll(() => page.getByTestId('rate-limit').textContent(), slow).toBe('No limit')
    expect((await call('/v1/pets')).status).toBe(200)
    await page.close()
  })

  it('seeds the edge data profile', async () => {
    const page = await openPanel()
    await page.getByLabel('Pets to generate', { exact: true }).fill('40')
    await page.getByLabel('Data', { exact: true }).selectOption('edge')
    await page.getByRole('button', { name: 'Seed pets' }).click()
    await expect.poll(() => total(page).textContent(), slow).toBe('40')
    const { pets } = await json<{ pets: { name: string; categoryId: number }[] }>('/__admin/state')
    expect(pets.some((p) => [...p.name].length === 200)).toBe(true)
    expect(pets.some((p) => p.categoryId === 9007199254740991)).toBe(true)
    await page.close()
  })
})
