import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../helpers/chromium.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'

// Issue 32: "Seed pets" was off-screen at every two-column width (right edge 1361 px in a 1280 px
// window, 2001 px in 1920 px, no horizontal scroll). Every control of the panel, its folded sections
// open, must be inside the viewport and clickable at every width from 1024 to 2560 px.
let browser: Browser
let server: SpawnedServer
/** Where the screenshots go (PANEL_SCREENSHOTS, else a folder of the system's temporary one). */
const shots = process.env['PANEL_SCREENSHOTS'] ?? join(tmpdir(), 'petstore-mock-panel-layout')

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  ;[browser, server] = await Promise.all([launchChromium(), spawnServer(['--log', 'silent'])])
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { Authorization: 'Bearer qa-token', 'Content-Type': 'application/json', ...init.headers },
    })
  // A session that looks used: edge-case pets, a rule beyond the contract, requests with long shapings.
  await call('/__admin/seed', { method: 'POST', body: JSON.stringify({ count: 40, data: 'edge' }) })
  await call('/__admin/faults', {
    method: 'POST',
    body: JSON.stringify({
      operation: 'listPets',
      status: 502,
      headers: { 'Content-Type': 'text/html' },
      body: '<h1>502 Bad Gateway</h1>',
      breaksContract: true,
      when: { headers: { 'User-Agent': 'mobile-app/1.0' } },
    }),
  })
  await call('/v1/pets?limit=40', { headers: { 'User-Agent': 'mobile-app/1.0' } })
  await call('/v1/pets?limit=40')
  await call('/v1/pets/16')
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

// The DOM, typed here: the suite's TypeScript has no DOM library (read inside the page as `globalThis`).
interface Box {
  left: number
  top: number
  right: number
  bottom: number
  width: number
  height: number
}
interface Element {
  parentElement: Element | null
  classList: { contains(name: string): boolean }
  scrollLeft: number
  tagName: string
  id: string
  textContent: string | null
  outerHTML: string
  getAttribute(name: string): string | null
  getClientRects(): { length: number }
  getBoundingClientRect(): Box
  scrollIntoView(options: object): void
  contains(other: Element): boolean
}
interface Window {
  document: {
    documentElement: { scrollWidth: number }
    querySelectorAll(selector: string): Iterable<Element>
    elementFromPoint(x: number, y: number): Element | null
  }
  innerWidth: number
  innerHeight: number
  scrollTo(x: number, y: number): void
}

/** Every control of the page: what a person can click, type in or open (the skip link, shown on focus, apart). */
const controlSelector = 'button, input, select, textarea, summary, a[href]:not(.skip)'

const open = async (width: number, height: number): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width, height } })
  await page.goto(`${server.url}/__admin/`)
  await page.getByText('Live', { exact: true }).waitFor({ timeout: 5000 })
  await page.getByRole('table', { name: 'Requests' }).locator('tbody tr:has(button)').nth(2).waitFor()
  // A request open (its details take room), and every folded section of the rule form open.
  await page.getByRole('table', { name: 'Requests' }).locator('tbody tr:has(button)').nth(1).getByRole('button').click()
  for (const summary of await page.locator('summary').all()) await summary.click()
  return page
}

describe('the QA panel’s layout in Chromium', () => {
  it.each([
    [1024, 768],
    [1280, 800],
    [1366, 768],
    [1440, 900],
    [1600, 900],
    [1920, 1080],
    [2560, 1440],
  ])(
    'at %i×%i px every control is inside the viewport and clickable, and nothing is wider than it',
    async (width, height) => {
      const page = await open(width, height)
      try {
        expect(await page.evaluate(() => (globalThis as unknown as Window).document.documentElement.scrollWidth)).toBe(
          width,
        )
        // In the page, one control after another: scrolled into view as a person would (the side column
        // scrolls on its own), then inside the viewport, and the topmost element at its centre (a click
        // lands on it: nothing covers it).
        const { count, outside } = await page.evaluate((selector) => {
          const { document, innerWidth, innerHeight } = globalThis as unknown as Window
          const problems: string[] = []
          let seen = 0
          for (const el of document.querySelectorAll(selector)) {
            if (el.getClientRects().length === 0) continue
            seen++
            el.scrollIntoView({ block: 'nearest', inline: 'nearest' })
            // Scrolling into view scrolls sideways too, even what hides its overflow (the page in the wide
            // layout): no person can, so back to the left edge, but in the requests table, which scrolls.
            for (let up = el.parentElement; up; up = up.parentElement) {
              if (!up.classList.contains('table-scroll')) up.scrollLeft = 0
            }
            const r = el.getBoundingClientRect()
            const name = `${el.tagName.toLowerCase()} ${el.id || el.getAttribute('aria-label') || el.textContent?.trim().slice(0, 30)}`
            if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
              problems.push(
                `${name}: ${Math.round(r.left)}–${Math.round(r.right)} × ${Math.round(r.top)}–${Math.round(r.bottom)}`,
              )
              continue
            }
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
            if (!hit || !(el === hit || el.contains(hit)))
              problems.push(`${name}: covered by ${hit?.outerHTML.slice(0, 60)}`)
          }
          return { count: seen, outside: problems }
        }, controlSelector)
        expect(count).toBeGreaterThan(40)
        expect(outside).toEqual([])
        if (width === 1280 || width === 1920) {
          await page.evaluate(() => (globalThis as unknown as Window).scrollTo(0, 0))
          await page.locator('.side').evaluate((side) => side.scrollTo(0, 0))
          await page.screenshot({ path: join(shots, `panel-${width}-top.png`) })
          await page.getByRole('button', { name: 'Seed pets' }).scrollIntoViewIfNeeded()
          await page.screenshot({ path: join(shots, `panel-${width}-state.png`) })
          console.log(`screenshots at ${width} px: ${join(shots, `panel-${width}-*.png`)}`)
        }
        // The skip link shows when focused, inside the viewport.
        await page.evaluate(() => (globalThis as unknown as Window).scrollTo(0, 0))
        await page.getByRole('link', { name: 'Skip to requests' }).focus()
        const skip = (await page.getByRole('link', { name: 'Skip to requests' }).boundingBox())!
        expect(skip.y).toBeGreaterThanOrEqual(0)
        const seed = (await page.getByRole('button', { name: 'Seed pets' }).boundingBox())!
        expect(seed.x + seed.width).toBeLessThanOrEqual(width)
      } finally {
        await page.close()
      }
    },
  )
})
