import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EdgeKind, edgeKindOf, edgeKinds } from '../../src/core/pets/edge-profile.js'
import type { Pet } from '../../src/core/spec/pet.js'
import { launchChromium } from '../helpers/chromium.js'
import { serveDirectory } from '../helpers/serve-directory.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'

// Issue 32 §4: the edge data profile against a real page. examples/pet-list/index.html (plain HTML and a
// few lines of script) lists the pets of a server started with `--faker --count 40 --seed 235 --data edge`,
// served from another origin as a frontend's dev server would be. Every name must come out as the text
// it is, in the page's width: no element injected by an HTML-looking name, nothing wider than the page.
const exampleDir = fileURLToPath(new URL('../../examples/pet-list', import.meta.url))
/** Seed 235's 40 pets hold every edge case, both kinds of long name, and a name that makes an element as HTML. */
const serverArgs = ['--log', 'silent', '--faker', '--count', '40', '--seed', '235', '--data', 'edge']

let browser: Browser
let server: SpawnedServer
let site: Awaited<ReturnType<typeof serveDirectory>>
let pets: Pet[]

beforeAll(async () => {
  ;[browser, server, site] = await Promise.all([launchChromium(), spawnServer(serverArgs), serveDirectory(exampleDir)])
  const res = await fetch(`${server.url}/v1/pets?limit=40`, { headers: { Authorization: 'Bearer t' } })
  pets = (await res.json()) as Pet[]
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await site?.close()
})

/** The pets of one edge case; `noStatus`: every pet without status (edge pets of other cases may lack one too). */
const petsOf = (kind: EdgeKind) =>
  pets.filter((pet) => (kind === 'noStatus' ? pet.status === undefined : edgeKindOf(pet) === kind))

/** What the page shows of each pet, read in the page (the suite's TypeScript has no DOM library). */
interface Row {
  id: string
  name: string
  blank: boolean
  rtl: boolean
  status: string
  meta: string
  text: string
  nameWidth: number
  left: number
  right: number
}

describe('examples/pet-list against the edge data profile, in Chromium', () => {
  it('seed 235 holds every edge case, a long name with spaces and one without, and HTML that makes an element', () => {
    expect(pets).toHaveLength(40)
    for (const kind of edgeKinds) expect(petsOf(kind).length, kind).toBeGreaterThan(0)
    expect(
      petsOf('long')
        .map((pet) => pet.name.includes(' '))
        .sort(),
    ).toEqual([false, true])
    expect(petsOf('html').map((pet) => pet.name)).toContain('"><img src=x onerror=alert(1)>')
  })

  it.each([375, 1280])(
    'at %i px: every name is text, every pet shows, nothing is wider than the page',
    async (width) => {
      const page = await browser.newPage({ viewport: { width, height: 800 } })
      const dialogs: string[] = []
      const errors: string[] = []
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message())
        void dialog.dismiss()
      })
      page.on('pageerror', (error) => errors.push(error.message))
      try {
        await page.goto(`${site.url}/index.html?api=${encodeURIComponent(server.url)}&limit=40`)
        await page.waitForSelector('#pets[aria-busy="false"]', { timeout: 15_000 })
        const seen = await page.evaluate(() => {
          const { document } = globalThis as any
          const list = document.getElementById('pets')
          const rows: Row[] = [...list.children].map((li: any) => {
            const name = li.querySelector('.pet-name')
            const box = li.getBoundingClientRect()
            return {
              id: li.dataset.id,
              name: name.textContent,
              blank: name.classList.contains('blank'),
              rtl: name.matches(':dir(rtl)'),
              status: li.querySelector('.pet-status').textContent,
              meta: li.querySelector('.pet-meta').textContent,
              text: li.textContent,
              nameWidth: name.getBoundingClientRect().width,
              left: Math.min(box.left, name.getBoundingClientRect().left),
              right: Math.max(box.right, name.getBoundingClientRect().right),
            }
          })
          return {
            rows,
            tags: [...new Set([...list.querySelectorAll('*')].map((el: any) => el.tagName.toLowerCase()))].sort(),
            message: document.getElementById('message').textContent,
            scrollWidth: document.documentElement.scrollWidth,
            clientWidth: document.documentElement.clientWidth,
          }
        })
        expect(seen.message).toBe('')
        expect(errors).toEqual([])
        // Every pet, in the API's order, its name exactly as sent: the 200-character ones, right-to-left,
        // decomposed accents (not normalised), CJK, emoji sequences, blank names, and the HTML-looking ones
        // as their characters (innerHTML would drop `<b>`, run `<img onerror>` and hide `<!-- … -->`).
        expect(seen.rows.map((row) => [Number(row.id), row.name])).toEqual(pets.map((pet) => [pet.id, pet.name]))
        expect(seen.tags).toEqual(['li', 'span'])
        expect(dialogs).toEqual([])
        const rowOf = (pet: Pet) => seen.rows.find((row) => Number(row.id) === pet.id)!
        for (const pet of petsOf('long')) expect([...rowOf(pet).name]).toHaveLength(200)
        // dir="auto": a name runs right to left when its first strong letter is Arabic or Hebrew (not `Max מקס`).
        for (const pet of petsOf('rtl')) expect(rowOf(pet).rtl, pet.name).toBe(/^[\u0590-\u08ff]/.test(pet.name))
        expect(petsOf('rtl').filter((pet) => rowOf(pet).rtl)).not.toEqual([])
        for (const pet of petsOf('cjk')) expect(rowOf(pet).rtl, pet.name).toBe(false)
        // A blank name is kept as sent and still takes room (the page says "(blank name)"): no row looks empty.
        for (const pet of petsOf('spaces')) {
          expect(rowOf(pet)).toMatchObject({ name: pet.name, blank: true })
          expect(rowOf(pet).nameWidth).toBeGreaterThan(20)
        }
        expect(seen.rows.filter((row) => row.blank)).toHaveLength(petsOf('spaces').length)
        // A pet without status shows one that says so; no row shows what JavaScript prints for nothing.
        for (const pet of petsOf('noStatus')) expect(rowOf(pet).status).toBe('no status')
        for (const pet of pets.filter((pet) => pet.status !== undefined)) expect(rowOf(pet).status).toBe(pet.status)
        expect(seen.rows.filter((row) => /undefined|null|NaN/.test(row.text))).toEqual([])
        // Category ids at the edges of what JSON numbers hold exactly, digit for digit.
        for (const pet of petsOf('categoryMax')) expect(rowOf(pet).meta).toBe(`#${pet.id} · category 9007199254740991`)
        for (const pet of petsOf('categoryMin')) expect(rowOf(pet).meta).toBe(`#${pet.id} · category -9007199254740991`)
        // Nothing wider than the page: no sideways scroll, every row and name inside the viewport.
        expect(seen.clientWidth).toBe(width)
        expect(seen.scrollWidth).toBeLessThanOrEqual(seen.clientWidth)
        expect(seen.rows.filter((row) => row.left < 0 || row.right > seen.clientWidth + 0.5)).toEqual([])
      } finally {
        await page.close()
      }
    },
  )
})
