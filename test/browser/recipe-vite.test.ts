import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixturePets } from '../../src/generated/contract.js'
import {
  type RecipeProject,
  recipeCommands,
  recipeFiles,
  recipeProject,
  removePackedPackage,
  runNode,
  startProcess,
  userNode,
  userNodeVersion,
  meetsNeeds,
  repoRoot,
  tool,
} from '../docs/recipe-files.js'
import { launchChromium } from '../helpers/chromium.js'
import { freePort } from '../helpers/free-port.js'

// docs/recipes/vite.md, extracted into a temporary project with the packed petstore-mock: the page's
// commands run as written (`npx <tool>` as the repository's copy of it; the servers get a loopback
// host and a free port), and Chromium opens the app from the dev server and from the preview build.
const page = 'docs/recipes/vite.md'

/**
 * The test's own type check (strict, as Vite's templates make it): not part of the page, and named
 * so that Vite does not read it. The project itself is made as the page says (recipeProject).
 */
const checkConfig = {
  'tsconfig.check.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'bundler',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      types: [],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
    include: ['src'],
  }),
}

let browser: Browser
let recipe: RecipeProject

beforeAll(async () => {
  recipe = recipeProject(page, checkConfig)
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  recipe?.remove()
  removePackedPackage()
})

/** Serves the app with `vite …args` (killed afterwards) and opens it in a fresh Chromium context. */
const withApp = async <T>(args: string[], use: (tab: Page, opened: Promise<unknown>) => Promise<T>): Promise<T> => {
  const port = await freePort()
  const server = await startProcess(
    recipe.dir,
    userNode,
    [tool.vite, ...args, '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    /Local:\s+http:\/\/127\.0\.0\.1:\d+/,
  )
  const context = await browser.newContext()
  try {
    const tab = await context.newPage()
    // The callback starts waiting for what it reads before the page loads.
    let open: (value: unknown) => void = () => {}
    const result = use(tab, new Promise((resolve) => (open = resolve)))
    open(await tab.goto(`http://127.0.0.1:${port}/`))
    return await result
  } finally {
    await context.close()
    await server.stop()
  }
}

/** The app's first GET /v1/pets as the page got it: its Content-Type, and whether the Service Worker answered. */
const firstPetsAnswer = async (tab: Page) => {
  const res = await tab.waitForResponse((res) => new URL(res.url()).pathname === '/v1/pets', { timeout: 30_000 })
  return { type: (await res.headerValue('content-type')) ?? '', fromWorker: res.fromServiceWorker() }
}

/** Serves the app with `vite …args` and reads the list the page shows, once it says how many. */
const petsShown = (args: string[]) =>
  withApp(args, async (tab, opened) => {
    const answer = firstPetsAnswer(tab)
    await opened
    // A page expression: the tests' own tsconfig has no DOM types.
    await tab.waitForFunction("document.querySelector('#status')?.textContent !== ''", undefined, {
      timeout: 30_000,
    })
    const names = await tab.$$eval('#pets li', (items) => items.map((item) => item.textContent ?? ''))
    return { names, status: (await tab.textContent('#status')) ?? '', answer: await answer }
  })

describe(`docs/recipes/vite.md, its commands on Node.js ${userNodeVersion()}`, () => {
  it('runs on a Node.js its Needs line accepts (what this run measures is that line)', () => {
    expect(meetsNeeds(page, userNodeVersion())).toBe(true)
  })

  it('shows complete files and the commands', () => {
    expect(recipeFiles(page).map((file) => file.path)).toEqual([
      'index.html',
      '.env.mock',
      'src/vite-env.d.ts',
      'src/mocks/browser.ts',
      'src/main.ts',
    ])
    expect(recipeCommands(page)).toEqual([
      'npm init -y',
      'npm pkg set type=module',
      'npm install --save-dev msw@3 vite',
      'npx msw init public/ --save',
      'npx vite',
      'npx vite build --mode mock',
      'npx vite preview',
      'npx vite build',
    ])
  })

  it('msw init puts the worker in public/ of the project the page makes; the files type-check', async () => {
    const init = await runNode(recipe.dir, [tool.msw, 'init', 'public/', '--save'], undefined, {}, userNode)
    expect(init.code, init.output).toBe(0)
    expect(existsSync(join(recipe.dir, 'public/mockServiceWorker.js'))).toBe(true)
    expect(JSON.parse(recipe.read('package.json'))).toMatchObject({
      type: 'module',
      devDependencies: { msw: expect.stringMatching(/^\^3\./), vite: expect.any(String) },
      msw: { workerDirectory: ['public'] },
    })
    const tsc = await runNode(recipe.dir, [tool.tsc, '-p', 'tsconfig.check.json'])
    expect(tsc.output).toBe('')
    expect(tsc.code).toBe(0)
  })

  it('why the page sets "type": "module": with npm init\'s "commonjs", Vite warns about a vite.config.ts', async () => {
    const manifest = recipe.read('package.json')
    recipe.write('vite.config.ts', "import { defineConfig } from 'vite'\n\nexport default defineConfig({})\n")
    try {
      const module = await runNode(recipe.dir, [tool.vite, 'build', '--outDir', 'dist-config'], undefined, {}, userNode)
      expect(module.code, module.output).toBe(0)
      expect(module.output).not.toContain('CommonJS')
      recipe.write('package.json', manifest.replace('"type": "module"', '"type": "commonjs"'))
      const commonjs = await runNode(
        recipe.dir,
        [tool.vite, 'build', '--outDir', 'dist-config'],
        undefined,
        {},
        userNode,
      )
      expect(commonjs.output).toContain('ESM syntax in a file loaded as CommonJS (vite.config.ts')
    } finally {
      recipe.write('package.json', manifest)
      rmSync(join(recipe.dir, 'vite.config.ts'))
      rmSync(join(recipe.dir, 'dist-config'), { recursive: true, force: true })
    }
  })

  const expected = { names: fixturePets.map((pet) => pet.name), status: `${fixturePets.length} pets` }
  const mocked = { type: 'application/json', fromWorker: true }

  it('development (npx vite): the Service Worker answers', async () => {
    expect(await petsShown([])).toEqual({ ...expected, answer: mocked })
  })

  it('production (npx vite build): no mock, no msw in the bundle', async () => {
    const build = await runNode(recipe.dir, [tool.vite, 'build'], undefined, {}, userNode)
    expect(build.code, build.output).toBe(0)
    const assets = readdirSync(join(recipe.dir, 'dist/assets'))
    expect(assets.filter((name) => name.endsWith('.js'))).toHaveLength(1)
    const code = assets.map((name) => readFileSync(join(recipe.dir, 'dist/assets', name), 'utf8')).join('\n')
    expect(code).not.toContain('mockServiceWorker')
    expect(code).not.toContain('setupWorker')
    renameSync(join(recipe.dir, 'dist'), join(recipe.dir, 'dist-production'))
  })

  it('production, served (npx vite preview): the app calls its own origin, which answers HTML', async () => {
    renameSync(join(recipe.dir, 'dist-production'), join(recipe.dir, 'dist'))
    try {
      expect(await withApp(['preview'], firstPetsAnswer)).toEqual({ type: 'text/html', fromWorker: false })
    } finally {
      renameSync(join(recipe.dir, 'dist'), join(recipe.dir, 'dist-production'))
    }
  })

  it('preview build (npx vite build --mode mock, npx vite preview): the Service Worker answers', async () => {
    const build = await runNode(recipe.dir, [tool.vite, 'build', '--mode', 'mock'], undefined, {}, userNode)
    expect(build.code, build.output).toBe(0)
    // Vite warns about the chunk that holds the mock (msw and the whole mock): the page says why.
    if (build.output.includes('Some chunks are larger than 500 kB')) {
      const text = readFileSync(join(repoRoot, page), 'utf8')
      expect(text).toContain('Some chunks are larger than 500 kB')
      // The configuration the page gives for it quiets it.
      const config = /`(export default defineConfig\(\(\{ mode \}\) => .*\))`/.exec(text)?.[1]
      expect(config).toBeDefined()
      recipe.write('vite.config.ts', `import { defineConfig } from 'vite'\n\n${config}\n`)
      try {
        const quiet = await runNode(
          recipe.dir,
          [tool.vite, 'build', '--mode', 'mock', '--outDir', 'dist-quiet'],
          undefined,
          {},
          userNode,
        )
        expect(quiet.code, quiet.output).toBe(0)
        expect(quiet.output).not.toContain('larger than')
      } finally {
        rmSync(join(recipe.dir, 'vite.config.ts'))
        rmSync(join(recipe.dir, 'dist-quiet'), { recursive: true, force: true })
      }
    }
    expect(await petsShown(['preview'])).toEqual({ ...expected, answer: mocked })
  })
})
