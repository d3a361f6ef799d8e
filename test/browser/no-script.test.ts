import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../helpers/chromium.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'

// Issue 40 §1: a fault rule, PUT by a token scoped to team-a-*, answered text/html with a script on
// the mock's own origin; a tab that held the root token in the QA panel navigated there, and the
// script read the token from sessionStorage and listed every session (403 for the scoped token).
let browser: Browser
let server: SpawnedServer
const root = 'root-s3cret-token'
const scoped = 'sa-team-a-token'

beforeAll(async () => {
  ;[browser, server] = await Promise.all([
    launchChromium(),
    spawnServer(['--log', 'json', '--admin-token', root, '--admin-token', `${scoped}=team-a-*`]),
  ])
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

// The attack: read the panel's token, list the sessions with it, say so in the title and the page.
const attack = `<script>
  const token = sessionStorage.getItem("petstore-mock.admin-token");
  document.title = "stolen: " + token;
  fetch("/__admin/sessions", { headers: { Authorization: "Bearer " + token } })
    .then((r) => r.text()).then((t) => fetch("/__admin/faults/leak?" + encodeURIComponent(t)));
  new Image().src = "/__admin/leaked?" + token;
  document.body.append("SCRIPT RAN");
</script>`

const nginx502 =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>' +
  `<hr><center>nginx</center>${attack}</body></html>`

const putRule = (name: string, rule: object) =>
  fetch(`${server.url}/sessions/team-a-1/__admin/faults/${name}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${scoped}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(rule),
  })

/** What the page's own code would see (the test's tsconfig has no DOM types). */
interface InPage {
  document: { body: { innerText: string } | null }
  origin: string
  sessionStorage: { getItem(key: string): string | null }
}

/** The requests the server logged (--log json), by path. */
const loggedPaths = (): string[] =>
  server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      // Request lines only: a warning (getPet is deprecated) has no path.
      const { path } = JSON.parse(line) as { path?: unknown }
      return typeof path === 'string' ? [path] : []
    })

describe('a rule answer cannot run script on the mock origin (real Chromium)', () => {
  it('the tab holding the root token in the panel navigates to the rule: nothing is read, nothing is sent', async () => {
    // The issue's rule, as the scoped token may PUT it, and the nginx-style 502 QA needs.
    const html = { 'Content-Type': 'text/html' }
    for (const [name, rule] of [
      ['xss', { operation: 'listPets', status: 200, breaksContract: true, headers: html, body: attack }],
      ['nginx', { operation: 'getPet', status: 502, breaksContract: true, headers: html, body: nginx502 }],
    ] as const)
      expect((await putRule(name, rule)).status, name).toBe(201)
    // The scoped token alone lists only its own sessions (issue 39): root's would list every team's.
    const own = await fetch(`${server.url}/__admin/sessions`, { headers: { Authorization: `Bearer ${scoped}` } })
    expect(own.status).toBe(200)
    const listed = ((await own.json()) as { sessions: { name: string }[] }).sessions.map((s) => s.name)
    expect(listed.every((name) => name.startsWith('team-a-'))).toBe(true)

    const context = await browser.newContext({ viewport: { width: 900, height: 500 } })
    const page = await context.newPage()
    const sent: string[] = []
    page.on('request', (request: Request) => sent.push(`${request.method()} ${new URL(request.url()).pathname}`))
    // The panel holds the root token, as a QA engineer's tab would.
    await page.goto(`${server.url}/__admin/`)
    const dialog = page.getByRole('dialog', { name: 'Unlock the admin API' })
    await dialog.waitFor()
    await page.getByLabel('Admin token', { exact: true }).fill(root)
    await page.getByRole('button', { name: 'Unlock' }).click()
    await dialog.waitFor({ state: 'hidden' })
    expect(await page.evaluate(() => sessionStorage.getItem('petstore-mock.admin-token'))).toBe(root)
    // Away from the panel, its own calls (polls of the session list) ended, before they are counted.
    await page.goto('about:blank')
    await page.waitForTimeout(500)
    const panelSessions = loggedPaths().filter((path) => path === '/__admin/sessions').length

    const shots = mkdtempSync(join(tmpdir(), 'petstore-no-script-'))
    for (const path of ['/sessions/team-a-1/v1/pets', '/sessions/team-a-1/v1/pets/1']) {
      // Away from the panel first: its own calls (the journal's stream, polls) end before the count starts.
      await page.goto('about:blank')
      await page.waitForTimeout(300)
      sent.length = 0
      const before = loggedPaths().length
      // Authentication comes first on /v1 (issue 39): the navigation carries a key, as a page behind a
      // gateway that adds one would, so that the rule answers it.
      await page.setExtraHTTPHeaders({ Authorization: 'Bearer any-key' })
      const res = await page.goto(`${server.url}${path}`)
      await page.setExtraHTTPHeaders({})
      await page.waitForLoadState('load')
      // Time for a script to have run and its requests to have gone out, if it could run at all.
      await page.waitForTimeout(500)
      await page.screenshot({ path: join(shots, `${path.split('/').pop()}.png`) })
      console.log(`screenshot: ${join(shots, `${path.split('/').pop()}.png`)}`)

      // Nothing was sent: the navigation only, by the browser and by the server's log.
      expect(sent).toEqual([`GET ${path}`])
      // The page is shown: the rule keeps its content type (QA's 502 reads as nginx's).
      const text = await page.evaluate(() => (globalThis as unknown as InPage).document.body?.innerText ?? '')
      expect(text).not.toContain('SCRIPT RAN')
      expect(await page.title()).not.toContain('stolen')
      if (path.endsWith('/1')) {
        expect(res!.status()).toBe(502)
        expect(await page.title()).toBe('502 Bad Gateway')
        expect(text).toContain('502 Bad Gateway')
      }
      // Even a script that ran there would find an opaque origin, whose storage it cannot read.
      expect(await page.evaluate(() => (globalThis as unknown as InPage).origin)).toBe('null')
      expect(
        await page.evaluate(() => {
          try {
            return (globalThis as unknown as InPage).sessionStorage.getItem('petstore-mock.admin-token')
          } catch (error) {
            return (error as Error).name
          }
        }),
      ).toBe('SecurityError')
      // (The log names the path without its session prefix.)
      expect(loggedPaths().slice(before)).toEqual([path.replace('/sessions/team-a-1', '')])
      // What made it so: the rule's type kept, the sandbox and nosniff added.
      expect(res!.headers()['content-type']).toBe('text/html')
      expect(res!.headers()['content-security-policy']).toBe("sandbox; default-src 'none'")
      expect(res!.headers()['x-content-type-options']).toBe('nosniff')
    }
    expect(loggedPaths().filter((path) => path === '/__admin/sessions')).toHaveLength(panelSessions)
    expect(loggedPaths().filter((path) => /^\/__admin\/(leaked|faults\/leak)/.test(path))).toEqual([])

    // Back in the panel, the token is still there for it, and only for it.
    await page.goto(`${server.url}/__admin/`)
    expect(await page.evaluate(() => sessionStorage.getItem('petstore-mock.admin-token'))).toBe(root)
    await context.close()
  })
})
