import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { coverageUsage } from '../../src/node/commands/coverage/coverage-command.js'
import { pactUsage } from '../../src/node/commands/pact/pact-command.js'
import { bundledSpec } from '../../src/core/spec/bundled-spec.js'
import { binPath, type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'
import { startStandIn } from '../helpers/stand-in.js'
import { recipeFiles, repoRoot } from './recipe-files.js'
import { bearer } from '../helpers/auth.js'
import { consumerSuite } from '../helpers/coverage-suite.js'

// Every example of the coverage and Pact sections of docs/ci.md, of the README's CI section, of the
// GitHub Actions recipe's coverage and pact steps, and of the subcommands' lines in
// docs/reference/options.md, run against the built server (or checked against the code).

const read = (page: string) => readFileSync(join(repoRoot, page), 'utf8')
/** The text of a page between two headings (the first through the line before the second). */
const section = (text: string, from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to))
/** The fenced blocks of a text in a language, their lines. */
const blocks = (text: string, lang: string) =>
  [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(([, body]) => body!)
/** The words of a command line (quotes removed, `\` continuations joined, no expansion). */
const words = (line: string): string[] =>
  [...line.replace(/\\\n\s*/g, ' ').matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(([, s, d, b]) => s ?? d ?? b!)

const run = (args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; script?: string } = {}) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      options.script === undefined ? process.execPath : 'sh',
      options.script === undefined ? args : ['-c', options.script],
      { env: { PATH: process.env['PATH'], ...options.env }, timeout: 60_000, ...(options.cwd && { cwd: options.cwd }) },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })

/** `npx petstore-mock …` of a page, as the built command line against `url`. */
const cliArgs = (line: string, url: string): string[] => {
  const argv = words(line.replace(/\s+#.*$/, ''))
  expect(argv.slice(0, 2)).toEqual(['npx', 'petstore-mock'])
  return [binPath, ...argv.slice(2).map((word) => word.replace('http://127.0.0.1:4010', url))]
}

let server: SpawnedServer
let work: string

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'petstore-mock-coverage-docs-'))
  // verify-pact.mjs imports @pact-foundation/pact, as from the project it is copied into.
  symlinkSync(join(repoRoot, 'node_modules'), join(work, 'node_modules'))
  server = await spawnServer(['--log', 'silent'])
  await consumerSuite(server.url, 'ci-42')
})
afterAll(async () => {
  await server?.stop()
  rmSync(work, { recursive: true, force: true })
})

describe('docs/ci.md: fail the build when your suite stops testing the 404', () => {
  const page = read('docs/ci.md')
  const text = section(page, '## Fail the build', '## Pact files')
  const [commands] = blocks(text, 'sh')

  it('leads the CI guide', () => {
    expect(page.indexOf('## Fail the build when your suite stops testing the 404')).toBeLessThan(
      page.indexOf('## Preconditions and verification'),
    )
  })

  it('the curl line answers what its comment says', async () => {
    const lines = commands!.split('\n')
    const curl = lines.find((line) => line.startsWith('curl'))!
    const argv = words(curl.split('|')[0]!)
    const [name, value] = argv[argv.indexOf('-H') + 1]!.split(': ')
    const url = argv.find((word) => word.startsWith('http'))!.replace('http://127.0.0.1:4010', server.url)
    const { covered, total, percent } = await (await fetch(url, { headers: { [name!]: value! } })).json()
    expect(curl).toContain("jq -c '{covered, total, percent}'")
    expect(lines[lines.indexOf(curl) + 1]).toBe(`# ${JSON.stringify({ covered, total, percent })}`)
  })

  it('the gate prints the table shown, names what is not covered as the page says, and exits 1', async () => {
    const gate = commands!.split('\n').find((line) => line.startsWith('npx petstore-mock coverage'))!
    const { code, stdout, stderr } = await run(cliArgs(gate, server.url))
    expect(code).toBe(1)
    const [table] = blocks(text, 'text')
    expect(stdout.startsWith(table!.replace('http://127.0.0.1:4010', server.url))).toBe(true)
    expect(text.replace(/\s+/g, ' ')).toContain(stderr.trim().replace(/^/, '`').replace(/$/, '`'))
  })

  it('names the 8 documented responses of openapi.yaml', () => {
    const documented = bundledSpec().operations.flatMap((op) => op.statuses.map((status) => `${op.id} ${status}`))
    expect(documented).toHaveLength(8)
    const bullet = text.replace(/\s+/g, ' ')
    expect(bullet).toContain(
      '(8 for this contract: `listPets` 200 and 401, `createPet` 201, 400 and 401, `getPet` 200, 401 and 404)',
    )
  })
})

describe('docs/ci.md: Pact files from what the suite did', () => {
  const text = section(read('docs/ci.md'), '## Pact files', '## Preconditions and verification')
  const [write, publish] = blocks(text, 'sh')
  const verifier = recipeFiles('docs/ci.md').find((file) => file.path === 'verify-pact.mjs')!

  it('the pact command writes the file its comment names', async () => {
    const [line, comment] = write!.trimEnd().split('\n')
    const { code, stderr } = await run(cliArgs(line!, server.url), { cwd: work })
    expect(code).toBe(0)
    expect(`# ${stderr.trim()}`).toBe(comment)
    const pact = JSON.parse(readFileSync(join(work, 'pacts', 'web-shop-Pet Store.json'), 'utf8'))
    expect(pact.interactions).toHaveLength(3)
  })

  it('publishes the directory the pact command writes, with the broker CLI of the Pact Foundation', () => {
    const argv = words(publish!)
    expect(argv.slice(0, 6)).toEqual([
      'npx',
      '--package',
      '@pact-foundation/pact-cli',
      'pact-broker',
      'publish',
      'pacts',
    ])
    expect(argv.filter((word) => word.startsWith('--'))).toEqual([
      '--package',
      '--consumer-app-version',
      '--branch',
      '--broker-base-url',
      '--broker-token',
    ])
  })

  it('verify-pact.mjs passes against a fresh mock, and fails against a drifting stand-in naming the interaction', async () => {
    expect(verifier.text).toContain("pactUrls: ['pacts/web-shop-Pet Store.json']")
    writeFileSync(join(work, 'verify-pact.mjs'), verifier.text)
    const fresh = await spawnServer(['--log', 'silent'])
    try {
      const passed = await run(['verify-pact.mjs'], { cwd: work, env: { PROVIDER_URL: fresh.url } })
      expect(passed.code, passed.stdout + passed.stderr).toBe(0)
    } finally {
      await fresh.stop()
    }
    const standIn = await startStandIn('wrong-status')
    try {
      const failed = await run(['verify-pact.mjs'], { cwd: work, env: { PROVIDER_URL: standIn.url } })
      expect(failed.code).not.toBe(0)
      expect(failed.stdout).toContain('POST /v1/pets with {name, categoryId} → 201')
      expect(failed.stdout).toMatch(/expected .*201.* but was .*200/)
    } finally {
      await standIn.close()
    }
  }, 60_000)
})

describe("the README's CI section", () => {
  const text = section(read('README.md'), '### CI: a service that calls the Pet Store', 'Set exact preconditions')
  const [commands] = blocks(text, 'sh')
  const lines = commands!.split('\n').filter((line) => line.startsWith('npx'))

  it('the gate exits 1 naming what its comment names; the pact goes where its comment says', async () => {
    const gate = await run(cliArgs(lines[0]!, server.url))
    expect(gate.code).toBe(1)
    expect(gate.stderr).toContain('not covered: createPet 401, getPet 200, getPet 401, getPet 404')
    expect(commands).toContain('("not covered: createPet 401, getPet 404")')
    const pact = await run(cliArgs(lines[1]!, server.url), { cwd: work })
    expect(pact.code).toBe(0)
    expect(commands).toContain('# pacts/my-service-Pet Store.json, Pact V4')
    expect(JSON.parse(readFileSync(join(work, 'pacts', 'my-service-Pet Store.json'), 'utf8')).metadata).toMatchObject({
      pactSpecification: { version: '4.0' },
    })
  })
})

describe('docs/recipes/github-actions.md: the coverage and pact steps', () => {
  const page = 'docs/recipes/github-actions.md'
  const workflow = parse(recipeFiles(page).find((file) => file.path === '.github/workflows/test.yml')!.text) as {
    jobs: { test: { steps: { name?: string; run?: string }[] } }
  }
  const steps = workflow.jobs.test.steps
  const stepRun = (name: string) => steps.find((step) => step.name?.startsWith(name))!.run!
  // The container's command, here; its PETSTORE_MOCK_ADMIN_TOKEN, as `docker exec` inherits it.
  const local = (script: string, url: string) =>
    script
      .replaceAll('docker exec petstore node dist/bin.js', `"${process.execPath}" "${binPath}"`)
      .replaceAll('http://127.0.0.1:4010', url)

  it('the gate fails the job until every documented response is tested, writing the summary each time', async () => {
    const mock = await spawnServer(['--log', 'silent'], { PETSTORE_MOCK_ADMIN_TOKEN: 'ci-admin' })
    try {
      const summary = join(work, 'summary.md')
      const env = { PETSTORE_MOCK_ADMIN_TOKEN: 'ci-admin', GITHUB_STEP_SUMMARY: summary }
      const gate = local(stepRun('Contract coverage'), mock.url)
      const t = bearer()
      await fetch(`${mock.url}/v1/pets`, { headers: t })
      const failing = await run([], { script: gate, env })
      expect(failing.code).toBe(1)
      expect(failing.stderr).toContain('not covered: listPets 401, createPet 201')
      expect(readFileSync(summary, 'utf8')).toContain('### Contract coverage: 1 of 8 documented responses covered')
      const json = { ...t, 'Content-Type': 'application/json' }
      // The 401s are asked for: a request whose credentials fail changes nothing (authentication first).
      const unauthorized = { ...t, Prefer: 'code=401' }
      const rest: [string, RequestInit][] = [
        ['/v1/pets', { headers: unauthorized }],
        ['/v1/pets', { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' }],
        ['/v1/pets', { method: 'POST', headers: json, body: '{"name":"Rex"}' }],
        ['/v1/pets', { method: 'POST', headers: unauthorized }],
        ['/v1/pets/1', { headers: t }],
        ['/v1/pets/1', { headers: unauthorized }],
        ['/v1/pets/999', { headers: t }],
      ]
      for (const [path, init] of rest) await fetch(`${mock.url}${path}`, init)
      const passing = await run([], { script: gate, env })
      expect([passing.code, passing.stderr]).toEqual([0, ''])
      expect(readFileSync(summary, 'utf8')).toContain(
        '### Contract coverage: 8 of 8 documented responses covered (100 %)',
      )
      const pactStep = local(stepRun('The Pact file'), mock.url)
      const wrote = await run([], { script: pactStep, env, cwd: work })
      expect(wrote.code).toBe(0)
      const pact = JSON.parse(readFileSync(join(work, 'pacts', 'my-service-Pet Store.json'), 'utf8'))
      expect(pact.consumer.name).toBe('my-service')
      // Injected answers (the 401s asked for) are no interactions.
      expect(pact.interactions.length).toBeGreaterThanOrEqual(5)
    } finally {
      await mock.stop()
    }
  })
})

describe('docs/reference/options.md: the coverage and pact subcommands', () => {
  const page = read('docs/reference/options.md').replace(/\n/g, ' ')
  const flagsOf = (usage: string) =>
    [...usage.matchAll(/^ {2}(?:-\w, )?--([a-z-]+)/gm)].map((match) => match[1]).filter((flag) => flag !== 'help')

  it.each([
    ['coverage', /`petstore-mock coverage URL([^`]*)`/, coverageUsage()],
    ['pact', /`petstore-mock pact URL([^`]*)`/, pactUsage()],
  ])('gives %s with exactly its flags', (_, line, usage) => {
    const documented = [...(line.exec(page)?.[1] ?? '').matchAll(/--([a-z-]+)/g)].map((match) => match[1])
    expect(documented.sort()).toEqual(flagsOf(usage).sort())
  })
})
