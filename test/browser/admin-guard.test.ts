import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../helpers/chromium.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'

/** What a page's fetch gave: a status, or the error the browser raised. */
type Outcome = { status: number; type: string; body: string; location: string | null } | { error: string }

/** A second local origin: any page, served from another 127.0.0.1 port. */
const pageServer = (): Promise<{ server: Server; port: number }> =>
  new Promise((resolve) => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      res.end('<!doctype html><title>some page</title>')
    })
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port }))
  })

let browser: Browser
let mock: SpawnedServer
let attacker: { server: Server; port: number }
let trusted: { server: Server; port: number }

beforeAll(async () => {
  attacker = await pageServer()
  trusted = await pageServer()
  // --host-resolver-rules plays DNS rebinding: evil.test resolves to the mock's own address.
  // The attacker's page is the test's (page.route), which Chromium counts as public: its local-network
  // checks would refuse its calls to loopback before the mock's Host check is reached, so they are off.
  browser = await launchChromium([
    '--host-resolver-rules=MAP evil.test 127.0.0.1',
    '--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,LocalNetworkAccessChecks',
  ])
  mock = await spawnServer(['--log', 'json', '--admin-cors-origin', `http://127.0.0.1:${trusted.port}`])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await mock?.stop()
  attacker?.server.close()
  trusted?.server.close()
})

/** Runs the attempts from a page at `pageUrl`, in order, against `target`. */
const attempt = async (
  pageUrl: string,
  target: string,
  auth = false,
  attackersPage = false,
): Promise<Record<string, Outcome>> => {
  const page: Page = await browser.newPage()
  try {
    // The attacker's own page, as its server sent it before the name was rebound.
    if (attackersPage)
      await page.route(pageUrl, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>a</title>' }),
      )
    await page.goto(pageUrl)
    return (await page.evaluate(
      async ({ target, auth }) => {
        const json = { 'Content-Type': 'application/json' }
        const tries: [string, string, RequestInit][] = [
          ['PUT state', '/__admin/state', { method: 'PUT', headers: json, body: '{"pets":[]}' }],
          ['POST faults', '/__admin/faults', { method: 'POST', headers: json, body: '{"status":503}' }],
          // A "simple" request goes out without a preflight: the server itself must refuse it.
          [
            'POST faults, simple',
            '/__admin/faults',
            { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"status":503}' },
          ],
          ['POST faults, no-cors', '/__admin/faults', { method: 'POST', mode: 'no-cors', body: '{"status":503}' }],
          ['POST reset, no-cors', '/__admin/reset', { method: 'POST', mode: 'no-cors' }],
          ['GET requests', '/__admin/requests', {}],
          ['GET state', '/__admin/state', {}],
          ...(auth
            ? ([
                ['GET /v1/pets', '/v1/pets?limit=100', { headers: { Authorization: 'Bearer front-end' } }],
                [
                  'POST /v1/pets',
                  '/v1/pets',
                  {
                    method: 'POST',
                    headers: { Authorization: 'Bearer front-end', ...json },
                    body: '{"name":"From a page","categoryId":1}',
                  },
                ],
              ] as [string, string, RequestInit][])
            : []),
        ]
        const outcomes: Record<string, unknown> = {}
        for (const [name, path, init] of tries) {
          try {
            const res = await fetch(`${target}${path}`, init)
            const body = res.type === 'opaque' ? '' : await res.text()
            outcomes[name] = { status: res.status, type: res.type, body, location: res.headers.get('location') }
          } catch (error) {
            outcomes[name] = { error: String(error) }
          }
        }
        return outcomes
      },
      { target, auth },
    )) as Record<string, Outcome>
  } finally {
    await page.close()
  }
}

/** The mock's world, as a client without a browser sees it. */
const world = async () => ({
  state: await (await fetch(`${mock.url}/__admin/state`)).json(),
  faults: await (await fetch(`${mock.url}/__admin/faults`)).json(),
})

/**
 * The length of the mock's log once no line has come for 50 ms (at most 2 s): log lines travel
 * through a pipe and may arrive after the answer they belong to.
 */
const settledLog = async (): Promise<number> => {
  let length = -1
  for (let i = 0; i < 40 && mock.stdout().length !== length; i++) {
    length = mock.stdout().length
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return length
}

/** What the mock answered to /__admin requests since `from` (its JSON request log). */
const adminLog = async (from: number) =>
  mock
    .stdout()
    .slice(from, await settledLog())
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { method: string; path: string; status: number })
    .filter((line) => line.path?.startsWith('/__admin'))
    .map(({ method, path, status }) => `${method} ${path} ${status}`)

/** The mock's log of the attempts, all refused; the first two are preflights unless same-origin. */
const refusedLog = (first: string, second: string): string[] =>
  [
    `${first} /__admin/state`,
    `${second} /__admin/faults`,
    'POST /__admin/faults',
    'POST /__admin/faults',
    'POST /__admin/reset',
    'GET /__admin/requests',
    'GET /__admin/state',
  ].map((line) => `${line} 403`)

const refusedEverywhere = (outcomes: Record<string, Outcome>) => {
  for (const name of ['PUT state', 'POST faults', 'POST faults, simple', 'GET requests', 'GET state']) {
    expect(outcomes[name], name).toEqual({ error: 'TypeError: Failed to fetch' })
  }
  // no-cors requests resolve with an opaque answer: nothing readable, and (below) nothing done.
  expect(outcomes['POST faults, no-cors']).toMatchObject({ status: 0, type: 'opaque', body: '' })
  expect(outcomes['POST reset, no-cors']).toMatchObject({ status: 0, type: 'opaque', body: '' })
}

describe('a page of another origin against the admin API (headless Chromium)', () => {
  it.each([
    ['127.0.0.1, another port (same-site)', () => `http://127.0.0.1:${attacker.port}/`],
    ['localhost, another port (cross-site)', () => `http://localhost:${attacker.port}/`],
  ])('from %s: every attempt fails and nothing changes', async (_, pageUrl) => {
    const before = await world()
    expect(before.state.pets).toHaveLength(12)
    const logFrom = await settledLog()
    const outcomes = await attempt(pageUrl(), mock.url)
    refusedEverywhere(outcomes)
    // The browser did send them (preflights for the non-simple ones): the mock refused each with 403.
    expect(await adminLog(logFrom)).toEqual(refusedLog('OPTIONS', 'OPTIONS'))
    expect(await world()).toEqual(before)
  })

  it('a rebound name (DNS rebinding: same origin, foreign Host) is refused, nothing changes', async () => {
    const before = await world()
    const logFrom = await settledLog()
    const port = new URL(mock.url).port
    // The attacker's page under its name, now resolving to the mock: its requests are same-origin. (Not a
    // page of the mock's: every one of them but the panel's is sandboxed, issue 40 §1, and runs no script.)
    const outcomes = await attempt(`http://evil.test:${port}/attack.html`, `http://evil.test:${port}`, false, true)
    for (const name of ['PUT state', 'POST faults', 'POST faults, simple', 'GET requests', 'GET state']) {
      expect(outcomes[name], name).toMatchObject({ status: 403, type: 'basic' })
      expect(JSON.parse((outcomes[name] as { body: string }).body)).toMatchObject({ code: 'forbidden' })
    }
    expect(await adminLog(logFrom)).toEqual(refusedLog('PUT', 'POST'))
    expect(await world()).toEqual(before)
  })

  it('the same page can still use /v1 as a front end does', async () => {
    const outcomes = await attempt(`http://localhost:${attacker.port}/`, mock.url, true)
    refusedEverywhere(outcomes)
    const list = outcomes['GET /v1/pets'] as { status: number; body: string }
    expect(list.status).toBe(200)
    expect(JSON.parse(list.body)).toHaveLength(12)
    expect(outcomes['POST /v1/pets']).toMatchObject({ status: 201, location: '/v1/pets/13' })
    const pets = (await world()).state.pets as { name: string }[]
    expect(pets.map((pet) => pet.name)).toContain('From a page')
  })

  it('an origin given with --admin-cors-origin drives the admin API', async () => {
    const outcomes = await attempt(`http://127.0.0.1:${trusted.port}/`, mock.url)
    expect(outcomes['PUT state']).toMatchObject({ status: 204 })
    expect(outcomes['POST faults']).toMatchObject({ status: 201, type: 'cors' })
    expect(outcomes['POST faults, simple']).toMatchObject({ status: 415, type: 'cors' })
    expect(outcomes['POST reset, no-cors']).toMatchObject({ status: 0, type: 'opaque' })
    expect(outcomes['GET requests']).toMatchObject({ status: 200, type: 'cors' })
    // The reset ran: the pets replaced by PUT state are back, and the rule is gone.
    expect(JSON.parse((outcomes['GET state'] as { body: string }).body).pets).toHaveLength(12)
    expect((await world()).faults).toEqual({ faults: [] })
  })
})
