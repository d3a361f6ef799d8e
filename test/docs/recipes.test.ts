import { afterAll, describe, expect, it } from 'vitest'
import {
  type RecipeProject,
  recipeCommands,
  recipeFiles,
  recipeProject,
  removePackedPackage,
  runNode,
  startProcess,
  tool,
} from './recipe-files.js'

// Every recipe of docs/recipes whose files run in Node: extracted from the page into a temporary project
// that has the packed petstore-mock installed, type-checked (strict) and run as the page says. The Vite
// recipe runs in Chromium (test/browser/recipe-vite.test.ts); the container ones are checked in
// recipes-static.test.ts and run by the container suites.

/** The tsconfig a user's project has (what Vite's templates make, strict), not part of the pages. */
const tsconfig = (options: Record<string, unknown> = {}) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'preserve',
      moduleResolution: 'bundler',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      types: [],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      noEmit: true,
      ...options,
    },
  })

const projects: RecipeProject[] = []
afterAll(() => {
  projects.forEach((project) => project.remove())
  removePackedPackage()
})
const project = (page: string, extra: Record<string, string> = {}) => {
  const made = recipeProject(page, extra)
  projects.push(made)
  return made
}

// Each of these runs tsc and a child vitest or node: seconds each, more on a loaded machine.
const slow = 120_000

/** Type-checks a project with the repository's TypeScript: resolves with tsc's output, '' when clean. */
const typeCheck = async (dir: string): Promise<string> => {
  const { code, output } = await runNode(dir, [tool.tsc, '-p', 'tsconfig.json'])
  return code === 0 ? '' : output
}

describe('docs/recipes/vitest-msw.md', () => {
  const page = 'docs/recipes/vitest-msw.md'

  it('shows complete files: the code, the configuration, the set-up and the tests', () => {
    expect(recipeFiles(page).map((file) => file.path)).toEqual([
      'src/pet-list.ts',
      'vitest.config.ts',
      'test/setup.ts',
      'test/pet-list.test.ts',
    ])
    expect(recipeCommands(page)).toEqual(['npm install --save-dev msw vitest happy-dom'])
  })

  it(
    'type-checks and its tests pass in happy-dom; without the url option happy-dom blocks the calls',
    async () => {
      const recipe = project(page, { 'tsconfig.json': tsconfig() })
      expect(await typeCheck(recipe.dir)).toBe('')
      const run = await runNode(recipe.dir, [tool.vitest, 'run'])
      expect(run.output).toMatch(/Tests\s+4 passed \(4\)/)
      expect(run.code).toBe(0)

      // The caveat the page states: cross-origin from happy-dom's default page, its preflight has no Origin.
      const config = recipe.read('vitest.config.ts')
      const withoutUrl = config.replace(/^.*environmentOptions.*\n/m, '')
      expect(withoutUrl).not.toBe(config)
      recipe.write('vitest.config.ts', withoutUrl)
      const blocked = await runNode(recipe.dir, [tool.vitest, 'run'])
      expect(blocked.code).toBe(1)
      expect(blocked.output).toContain('NetworkError: Cross-Origin Request Blocked')
      expect(blocked.output).toMatch(/Tests\s+4 failed \(4\)/)
    },
    slow,
  )
})

describe('docs/recipes/library.md', () => {
  const page = 'docs/recipes/library.md'

  it('shows complete files and the commands that run them', () => {
    expect(recipeFiles(page).map((file) => file.path)).toEqual(['test/petstore.test.ts', 'serve.ts'])
    expect(recipeCommands(page)).toEqual([
      'node --test test/petstore.test.ts',
      'npm install @hono/node-server',
      'node serve.ts',
    ])
  })

  it(
    'type-checks; node --test passes; node serve.ts serves the mock and stops on SIGTERM',
    async () => {
      const recipe = project(page, { 'tsconfig.json': tsconfig({ lib: ['ES2023'], types: ['node'] }) })
      expect(await typeCheck(recipe.dir)).toBe('')
      const run = await runNode(recipe.dir, ['--test', 'test/petstore.test.ts'])
      expect(run.output).toMatch(/^ℹ pass 4$/m)
      expect(run.code).toBe(0)

      const served = await startProcess(
        recipe.dir,
        process.execPath,
        ['serve.ts'],
        /on (http:\/\/127\.0\.0\.1:\d+)\/v1/,
        {
          env: { PORT: '0' },
        },
      )
      try {
        const res = await fetch(`${served.match[1]}/v1/pets?limit=1`, { headers: { Authorization: 'Bearer dev-key' } })
        expect(res.status).toBe(200)
        expect(await res.json()).toEqual([{ id: 1, name: 'Biscuit', categoryId: 1, status: 'available' }])
      } finally {
        expect(await served.stop()).toBe(0)
      }
    },
    slow,
  )
})

// Storybook's own runner needs a browser; here each story's set-up runs as Storybook runs it (the
// preview's beforeEach, with the addon's worker as `msw`, then the story's), with msw's setupServer in
// the worker's place, and the mock must then answer as the story says.
const storySetUp = `import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import preview, { petstore } from '../.storybook/preview'
import * as stories from '../src/PetList.stories'

const server = setupServer()
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

const origin = 'http://localhost:6006'
const headers = { Authorization: 'Bearer storybook', 'Content-Type': 'application/json' }
type BeforeEach = ((context: never) => unknown) | undefined
const setUp = async (story: { input: { beforeEach?: unknown } }) => {
  server.resetHandlers()
  const context = { msw: server } as never
  await (preview.input.beforeEach as unknown as BeforeEach)?.(context)
  await (story.input.beforeEach as BeforeEach)?.(context)
}
const list = async () => (await (await fetch(origin + '/v1/pets', { headers })).json()) as { name: string }[]
const create = () => fetch(origin + '/v1/pets', { method: 'POST', headers, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) })

it('Default: the bundled pets, and a create works', async () => {
  await setUp(stories.Default)
  expect((await list()).length).toBe(12)
  expect((await create()).status).toBe(201)
})

it('Empty: no pets', async () => {
  await setUp(stories.Empty)
  expect(await list()).toEqual([])
})

it('CreateFails: every create answers 503; the preview reset what Empty did', async () => {
  await setUp(stories.CreateFails)
  expect((await list()).length).toBe(12)
  expect((await create()).status).toBe(503)
  expect((await create()).status).toBe(503)
})

it('Default again: the preview reset the rule', async () => {
  await setUp(stories.Default)
  expect((await create()).status).toBe(201)
})
`

describe('docs/recipes/storybook.md', () => {
  const page = 'docs/recipes/storybook.md'

  it('shows complete files: the configuration, a component and its stories', () => {
    expect(recipeFiles(page).map((file) => file.path)).toEqual([
      '.storybook/main.ts',
      '.storybook/preview.ts',
      'src/PetList.tsx',
      'src/PetList.stories.tsx',
    ])
    expect(recipeCommands(page)).toEqual([
      'npm install --save-dev storybook @storybook/react-vite msw-storybook-addon msw',
      'npx msw init public/ --save',
    ])
  })

  it(
    'type-checks (strict, JSX), and each story sets the mock up as it says',
    async () => {
      const recipe = project(page, {
        'tsconfig.json': tsconfig({ jsx: 'react-jsx' }),
        'test/stories.test.ts': storySetUp,
      })
      expect(await typeCheck(recipe.dir)).toBe('')
      const run = await runNode(recipe.dir, [tool.vitest, 'run'])
      expect(run.output).toMatch(/Tests\s+4 passed \(4\)/)
      expect(run.code).toBe(0)
    },
    slow,
  )
})
