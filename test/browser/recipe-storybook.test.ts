import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixturePets } from '../../src/generated/contract.js'
import {
  type RecipeProject,
  recipeProject,
  removePackedPackage,
  repoRoot,
  runNode,
  userNode,
  userNodeVersion,
  meetsNeeds,
  tool,
} from '../docs/recipe-files.js'
import { launchChromium } from '../helpers/chromium.js'
import { serveDirectory } from '../helpers/serve-directory.js'

// docs/recipes/storybook.md in a real Storybook: extracted into a temporary project with the packed
// petstore-mock, `msw init public/ --save` and `storybook build` as the page says, the static
// Storybook served on loopback and each story opened in Chromium (test/docs/recipes.test.ts
// type-checks the same files).
const page = 'docs/recipes/storybook.md'

let browser: Browser
let recipe: RecipeProject
let site: Awaited<ReturnType<typeof serveDirectory>>

beforeAll(async () => {
  // The project as the page makes it (npm init -y, npm pkg set type=module, its install recorded).
  recipe = recipeProject(page)
  const init = await runNode(recipe.dir, [tool.msw, 'init', 'public/', '--save'], undefined, {}, userNode)
  expect(init.code, init.output).toBe(0)
  const build = await runNode(
    recipe.dir,
    [`${repoRoot}/node_modules/storybook/dist/bin/dispatcher.js`, 'build', '--quiet', '--disable-telemetry'],
    240_000,
    { STORYBOOK_DISABLE_TELEMETRY: '1' },
    userNode,
  )
  expect(build.code, build.output).toBe(0)
  ;[browser, site] = await Promise.all([launchChromium(), serveDirectory(`${recipe.dir}/storybook-static`)])
}, 300_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
  recipe?.remove()
  removePackedPackage()
})

/** Opens one story alone (Storybook's iframe) in a fresh context: no Service Worker yet. */
const story = async <T>(id: string, use: (tab: Page) => Promise<T>): Promise<T> => {
  const context = await browser.newContext()
  try {
    const tab = await context.newPage()
    const log: string[] = []
    tab.on('console', (message) => log.push(`${message.type()}: ${message.text()}`))
    tab.on('pageerror', (error) => log.push(`pageerror: ${error.message}`))
    await tab.goto(`${site.url}/iframe.html?id=${id}&viewMode=story`)
    try {
      return await use(tab)
    } catch (error) {
      const text = await tab.innerText('body').catch(() => '')
      throw new Error(`${id}: ${(error as Error).message}\npage: ${text}\nconsole:\n${log.join('\n')}`)
    }
  } finally {
    await context.close()
  }
}
const wait = { timeout: 20_000 }
// Where Storybook renders the story (its iframe has lists of its own, hidden).
const root = '#storybook-root'
/** A page expression (the tests' own tsconfig has no DOM types): the story's status line says `text`. */
const statusIs = (text: string) =>
  `document.querySelector('${root} [role=status]')?.textContent === ${JSON.stringify(text)}`

/** The names the story lists now. */
const names = (tab: Page) => tab.$$eval(`${root} li`, (items) => items.map((item) => item.textContent))

describe(`docs/recipes/storybook.md in Storybook, built on Node.js ${userNodeVersion()}`, () => {
  it('was built on a Node.js its Needs line accepts (what this run measures is that line)', () => {
    expect(meetsNeeds(page, userNodeVersion())).toBe(true)
  })

  it('Default: the bundled pets; adding Rex works', async () => {
    await story('petlist--default', async (tab) => {
      // What is asserted is waited for: the list re-renders after the status line says "Added Rex"
      // (once failed: 12 items counted while the page already listed Rex).
      await expect.poll(() => names(tab), wait).toEqual(fixturePets.map((pet) => pet.name))
      await tab.click(`${root} button`)
      await tab.waitForFunction(statusIs('Added Rex'), null, wait)
      await expect.poll(() => names(tab), wait).toEqual([...fixturePets.map((pet) => pet.name), 'Rex'])
    })
  })

  it('Empty: no pets', async () => {
    await story('petlist--empty', async (tab) => {
      await tab.waitForSelector(`${root} >> text=No pets yet`, wait)
      expect(await names(tab)).toEqual([])
    })
  })

  it('CreateFails: the list loads, adding Rex fails with 503 and adds nothing', async () => {
    await story('petlist--create-fails', async (tab) => {
      const names = () => tab.$$eval(`${root} li`, (items) => items.map((item) => item.textContent))
      await tab.waitForSelector(`${root} li`, wait)
      expect(await names()).toEqual(fixturePets.map((pet) => pet.name))
      await tab.click(`${root} button`)
      await tab.waitForFunction(`${statusIs('Could not add Rex (503)')} || ${statusIs('Added Rex')}`, null, wait)
      expect(await tab.$eval(`${root} [role=status]`, (status) => status.textContent)).toBe('Could not add Rex (503)')
      expect(await names()).toEqual(fixturePets.map((pet) => pet.name))
    })
  })
})
