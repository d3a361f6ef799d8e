import { afterAll, describe, expect, it } from 'vitest'
import {
  meetsNeeds,
  type RecipeProject,
  recipeCommands,
  recipeFiles,
  recipeProject,
  removePackedPackage,
  runNode,
  startProcess,
  tool,
} from './recipe-files.js'
import { bearer } from '../helpers/auth.js'

// Every recipe of docs/recipes whose files run in Node: extracted from the page into a temporary project
// that has the packed petstore-mock installed, type-checked (strict) and run as the page says. The Vite
// recipe runs in Chromium (test/browser/recipe-vite.test.ts); the container ones are checked in
// recipes-static.test.ts and run by the container suites.

/**
 * The tsconfig of the test's own type check (strict, as Vite's templates make it), not part of the
 * pages: named so that no tool of the recipe reads it (Vite and Vitest read tsconfig.json), and
 * written after the recipe ran as the page says.
 */
const checkConfig = 'tsconfig.check.json'
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

/** Type-checks a project with the repository's TypeScript (and `config` as its tsconfig): tsc's output, '' when clean. */
const typeCheck = async (recipe: RecipeProject, config: string): Promise<string> => {
  recipe.write(checkConfig, config)
  const { code, output } = await runNode(recipe.dir, [tool.tsc, '-p', checkConfig])
  return code === 0 ? '' : output
}

describe('docs/recipes/vitest-msw.md', () => {
  const page = 'docs/recipes/vitest-msw.md'

  it('runs on a Node.js its Needs line accepts', () => {
    expect(meetsNeeds(page, process.version)).toBe(true)
  })

  it('shows complete files: the code, the configuration, the set-up and the tests', () => {
    expect(recipeFiles(page).map((file) => file.path)).toEqual([
      'src/pet-list.ts',
      'vitest.config.ts',
      'test/setup.ts',
      'test/pet-list.test.ts',
    ])
    expect(recipeCommands(page)).toEqual([
      'npm init -y',
      'npm pkg set type=module',
      'npm install --save-dev msw@3 vitest happy-dom',
    ])
  })

  it(
    'in a project made as it says, its tests pass in happy-dom with no warning, and type-check; ' +
      'without "type": "module" Vitest warns; without the url option msw refuses the calls (another origin)',
    async () => {
      const recipe = project(page)
      expect(JSON.parse(recipe.read('package.json'))).toMatchObject({
        type: 'module',
        devDependencies: { msw: expect.stringMatching(/^\^3\./), 'petstore-mock': expect.stringMatching(/^file:/) },
      })
      const run = await runNode(recipe.dir, [tool.vitest, 'run'])
      expect(run.output).toMatch(/Tests\s+4 passed \(4\)/)
      expect(run.output).not.toContain('CommonJS')
      expect(run.code).toBe(0)
      expect(await typeCheck(recipe, tsconfig())).toBe('')

      // What `npm init -y` alone makes: "type": "commonjs", and Vitest warns about its configuration.
      const manifest = recipe.read('package.json')
      recipe.write('package.json', manifest.replace('"type": "module"', '"type": "commonjs"'))
      const commonjs = await runNode(recipe.dir, [tool.vitest, 'run'])
      expect(commonjs.output).toContain('ESM syntax in a file loaded as CommonJS (vitest.config.ts')
      recipe.write('package.json', manifest)

      // The page's caveat: without the url option, happy-dom's page is http://localhost:3000, whose
      // origin is the only one the mock answers; msw refuses the calls to http://localhost:4010.
      const config = recipe.read('vitest.config.ts')
      const withoutUrl = config.replace(/^.*environmentOptions.*\n/m, '')
      expect(withoutUrl).not.toBe(config)
      recipe.write('vitest.config.ts', withoutUrl)
      const blocked = await runNode(recipe.dir, [tool.vitest, 'run'])
      expect(blocked.code).toBe(1)
      expect(blocked.output).toContain('with URL "http://localhost:4010/v1/pets": [MSW] Cannot bypass a request')
      expect(blocked.output).toContain('intercepted a request without a matching request handler')
      expect(blocked.output).toMatch(/Tests\s+4 failed \(4\)/)
    },
    slow,
  )
})

describe('docs/recipes/library.md', () => {
  const page = 'docs/recipes/library.md'

  it('runs on a Node.js its Needs line accepts', () => {
    expect(meetsNeeds(page, process.version)).toBe(true)
  })

  it('shows complete files and the commands that run them', () => {
    expect(recipeFiles(page).map((file) => file.path)).toEqual(['test/petstore.test.ts', 'serve.ts'])
    expect(recipeCommands(page)).toEqual([
      'npm init -y',
      'npm pkg set type=module',
      'node --test test/petstore.test.ts',
      'npm install @hono/node-server',
      'node serve.ts',
    ])
  })

  it(
    'in a project made as it says: node --test passes (not without "type": "module"); it type-checks; ' +
      'node serve.ts serves the mock and stops on SIGTERM',
    async () => {
      const recipe = project(page)
      expect(JSON.parse(recipe.read('package.json'))).toMatchObject({
        type: 'module',
        dependencies: { '@hono/node-server': expect.stringMatching(/^\^2\./) },
      })
      const run = await runNode(recipe.dir, ['--test', 'test/petstore.test.ts'])
      // Node 23 and later report as `spec` by default, Node 22 in TAP when its output is no terminal.
      expect(run.output).toMatch(/^(ℹ|#) pass 4$/m)
      expect(run.code).toBe(0)
      expect(await typeCheck(recipe, tsconfig({ lib: ['ES2023'], types: ['node'] }))).toBe('')

      // What `npm init -y` alone makes ("type": "commonjs"): Node refuses the first import.
      const manifest = recipe.read('package.json')
      recipe.write('package.json', manifest.replace('"type": "module"', '"type": "commonjs"'))
      const commonjs = await runNode(recipe.dir, ['--test', 'test/petstore.test.ts'])
      expect(commonjs.output).toContain('SyntaxError: Cannot use import statement outside a module')
      expect(commonjs.code).toBe(1)
      recipe.write('package.json', manifest)

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
        const res = await fetch(`${served.match[1]}/v1/pets?limit=1`, { headers: bearer('dev-key') })
        expect(res.status).toBe(200)
        expect(await res.json()).toEqual([{ id: 1, name: 'Biscuit', categoryId: 1, status: 'available' }])
      } finally {
        expect(await served.stop()).toBe(0)
      }
    },
    slow,
  )
})

describe('docs/recipes/typed-client.md', () => {
  const page = 'docs/recipes/typed-client.md'

  it('shows complete files and the commands that run them', () => {
    expect(recipeFiles(page).map((file) => file.path)).toEqual([
      'test/in-process.test.ts',
      'test/against-server.test.ts',
    ])
    expect(recipeCommands(page)).toEqual([
      'npm init -y',
      'npm pkg set type=module',
      'node --test test/in-process.test.ts',
      'npx petstore-mock --port 4010 --api-key test-key',
      'node --test test/against-server.test.ts',
    ])
  })

  it(
    'in a project made as it says: the in-process file passes, the server file passes against ' +
      'petstore-mock started as the page says (on a free port), and both type-check',
    async () => {
      const recipe = project(page)
      const inProcess = await runNode(recipe.dir, ['--test', 'test/in-process.test.ts'])
      // Node 23 and later report as `spec` by default, Node 22 in TAP when its output is no terminal.
      expect(inProcess.output).toMatch(/^(ℹ|#) pass 3$/m)
      expect(inProcess.code).toBe(0)
      // `npx petstore-mock --port 4010 --api-key test-key`: the installed bin, on a free port instead.
      const served = await startProcess(
        recipe.dir,
        process.execPath,
        ['node_modules/petstore-mock/dist/bin.js', '--host', '127.0.0.1', '--port', '0', '--api-key', 'test-key'],
        /listening on (http:\/\/\S+)/,
      )
      try {
        const run = await runNode(recipe.dir, ['--test', 'test/against-server.test.ts'], 120_000, {
          PETSTORE_MOCK_URL: served.match[1]!,
        })
        expect(run.output).toMatch(/^(ℹ|#) pass 2$/m)
        expect(run.code).toBe(0)
      } finally {
        expect(await served.stop()).toBe(0)
      }
      expect(await typeCheck(recipe, tsconfig({ lib: ['ES2023', 'DOM'], types: ['node'] }))).toBe('')
    },
    slow,
  )
})

// Storybook's own runner needs a browser; here each story's set-up runs as Storybook runs it (the
// preview's beforeEach, with the addon's worker as `msw`, then the story's), with msw's setupServer in
// the worker's place, and the mock must then answer as the story says. The page's origin is
// Storybook's (createHandlers() answers the page's origin), set before the preview is imported.
const storybookPage = `Object.defineProperty(globalThis, 'location', { value: new URL('http://localhost:6006/') })
`
const storySetUp = `import './storybook-page'
import { setupServer } from 'msw/node'
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
      'npm init -y',
      'npm pkg set type=module',
      'npm install --save-dev storybook @storybook/react-vite msw-storybook-addon msw@3',
      'npx msw init public/ --save',
    ])
  })

  it(
    'type-checks (strict, JSX), and each story sets the mock up as it says',
    async () => {
      const recipe = project(page, { 'test/stories.test.ts': storySetUp, 'test/storybook-page.ts': storybookPage })
      const run = await runNode(recipe.dir, [tool.vitest, 'run'])
      expect(run.output).toMatch(/Tests\s+4 passed \(4\)/)
      expect(run.code).toBe(0)
      expect(await typeCheck(recipe, tsconfig({ jsx: 'react-jsx' }))).toBe('')
    },
    slow,
  )
})
