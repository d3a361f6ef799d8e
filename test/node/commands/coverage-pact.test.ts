import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { coverageSchema } from '../../../src/core/coverage/coverage-schema.js'
import { binPath, type SpawnedServer, spawnServer } from '../../helpers/spawn-server.js'
import { pactV4Schema } from '../../helpers/pact-v4-schema.js'
import { bearer } from '../../helpers/auth.js'
import { consumerSuite } from '../../helpers/coverage-suite.js'

/** `petstore-mock <args>` as a child process. */
const run = (args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [binPath, ...args],
      { env: { PATH: process.env['PATH'], ...env }, timeout: 20_000, ...(cwd && { cwd }) },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    )
  })

let server: SpawnedServer
let work: string
const admin = bearer('ci-admin')

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'petstore-mock-coverage-cli-'))
  server = await spawnServer(['--log', 'silent'], { PETSTORE_MOCK_ADMIN_TOKEN: 'ci-admin' })
  expect(await consumerSuite(server.url, 'ci')).toEqual([200, 401, 201, 400])
  // Another session's requests: none of them may count for session ci.
  for (const path of ['/v1/pets/1', '/v1/pets/999']) {
    await fetch(`${server.url}${path}`, { headers: { 'X-Mock-Session': 'other', ...bearer() } })
  }
})
afterAll(async () => {
  await server?.stop()
  rmSync(work, { recursive: true, force: true })
})

describe('petstore-mock coverage', () => {
  const coverage = (...args: string[]) =>
    run(['coverage', server.url, '--session', 'ci', '--token', 'ci-admin', ...args])

  it('--min 80 against 4 of 8 covered: exit 1, naming getPet 200, 401, 404 and createPet 401', async () => {
    const { code, stdout, stderr } = await coverage('--min', '80')
    expect(code).toBe(1)
    expect(stderr).toBe(
      'petstore-mock coverage: 50 % of documented responses is below --min 80; not covered: createPet 401, getPet 200, getPet 401, getPet 404\n',
    )
    expect(stdout).toContain(
      `Contract coverage of session ci at ${server.url}: 4 of 8 documented responses covered (50 %), 4 requests`,
    )
    expect(stdout).toMatch(/getPet\s+404\s+0\s+0\s+NOT COVERED/)
    expect(stdout).toMatch(/listPets\s+200\s+1\s+0\s+covered/)
    expect(stdout).toMatch(/createPet\s+body status\s+without\s+2/)
  })

  it('--min 50 against 50 %: exit 0; no --min: exit 0', async () => {
    expect((await coverage('--min', '50')).code).toBe(0)
    const { code, stderr } = await coverage()
    expect([code, stderr]).toEqual([0, ''])
  })

  it('--format json is the report, valid against the shipped schema', async () => {
    const { code, stdout } = await coverage('--format', 'json')
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    const validate = new Ajv({ strict: true }).compile(coverageSchema)
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true)
    expect(report).toMatchObject({ session: 'ci', covered: 4, total: 8, percent: 50, requests: 4 })
  })

  it('--format junit: one test case per documented response, the uncovered ones failing', async () => {
    const { code, stdout } = await coverage('--format', 'junit', '--min', '100')
    expect(code).toBe(1)
    expect(stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites [^>]*tests="8" failures="4">/)
    expect(stdout.match(/<testcase /g)).toHaveLength(8)
    expect([...stdout.matchAll(/name="(\w+ \d+)">\s*<failure/g)].map((m) => m[1])).toEqual([
      'createPet 401',
      'getPet 200',
      'getPet 401',
      'getPet 404',
    ])
    expect(stdout).toContain('<testcase classname="listPets" name="listPets 200"/>')
  })

  it('--format markdown: a table for a GitHub Actions job summary', async () => {
    const { stdout } = await coverage('--format', 'markdown')
    expect(stdout).toContain('### Contract coverage: 4 of 8 documented responses covered (50 %)')
    expect(stdout).toContain('Not covered: `createPet 401`, `getPet 200`, `getPet 401`, `getPet 404`.')
    expect(stdout).toContain('| getPet | 404 | 0 | 0 | ❌ not covered |')
    expect(stdout).toContain('| listPets | 200 | 1 | 0 | ✅ covered |')
  })

  it('reads the admin token from PETSTORE_MOCK_ADMIN_TOKEN, as the server does (its former name with a note)', async () => {
    const args = ['coverage', server.url, '--session', 'other', '--min', '25', '--format', 'json']
    expect(await run(args, { PETSTORE_MOCK_ADMIN_TOKEN: 'ci-admin' })).toMatchObject({ code: 0, stderr: '' })
    const legacy = await run(args, { ADMIN_TOKEN: 'ci-admin' })
    expect(legacy.code).toBe(0)
    expect(legacy.stderr).toBe(
      'petstore-mock: ADMIN_TOKEN is deprecated: set PETSTORE_MOCK_ADMIN_TOKEN instead (read ADMIN_TOKEN this time)\n',
    )
    // The prefixed name wins; a wrong token is refused (exit 2).
    const both = await run(args, { PETSTORE_MOCK_ADMIN_TOKEN: 'wrong', ADMIN_TOKEN: 'ci-admin' })
    expect(both.code).toBe(2)
    expect(both.stderr).toContain(
      'ADMIN_TOKEN is deprecated and ignored: PETSTORE_MOCK_ADMIN_TOKEN is set too, and wins',
    )
    // --token wins over both, and reads no variable.
    expect(await run([...args, '--token', 'ci-admin'], { ADMIN_TOKEN: 'wrong' })).toMatchObject({ code: 0, stderr: '' })
  })

  it('exit 2 on bad usage, a refused token or a mock that cannot be reached', async () => {
    for (const args of [
      [],
      ['not a url'],
      [server.url, '--min', '101'],
      [server.url, '--format', 'xml'],
      [server.url, '--bogus'],
    ]) {
      const { code, stderr } = await run(['coverage', ...args])
      expect(code, args.join(' ')).toBe(2)
      expect(stderr).toContain('Usage: petstore-mock coverage URL')
    }
    const refused = await run(['coverage', server.url, '--token', 'wrong'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^petstore-mock coverage: .*401/)
    const unreachable = await run(['coverage', 'http://127.0.0.1:9', '--token', 'x'])
    expect(unreachable.code).toBe(2)
    expect(unreachable.stderr).toContain('http://127.0.0.1:9')
    const help = await run(['coverage', '--help'])
    expect([help.code, help.stdout.startsWith('Usage: petstore-mock coverage URL')]).toEqual([0, true])
  })
})

describe('petstore-mock pact', () => {
  it('writes pacts/<consumer>-<provider>.json by default, a Pact V4 file of the session', async () => {
    const { code, stderr } = await run(
      ['pact', server.url, '--consumer', 'web', '--session', 'ci', '--token', 'ci-admin'],
      {},
      work,
    )
    expect(code).toBe(0)
    expect(stderr).toBe(
      `petstore-mock pact: wrote 3 interactions between web and Pet Store to pacts/web-Pet Store.json\n`,
    )
    const pact = JSON.parse(readFileSync(join(work, 'pacts', 'web-Pet Store.json'), 'utf8'))
    const validate = new Ajv({ strict: false }).compile(pactV4Schema)
    expect(validate(pact), JSON.stringify(validate.errors)).toBe(true)
    expect(pact.interactions.map((i: { description: string }) => i.description)).toEqual([
      // The suite's 401 was asked for (Prefer): an injected answer is no interaction.
      'GET /v1/pets → 200, given pets exist',
      'POST /v1/pets with {name, categoryId} → 201',
      'POST /v1/pets with {name} → 400',
    ])
  })

  it('--out FILE and --provider NAME; --out - prints it', async () => {
    const file = join(work, 'out', 'shop.json')
    const args = ['pact', server.url, '--consumer', 'shop', '--provider', 'pets', '--token', 'ci-admin']
    expect((await run([...args, '--out', file, '--session', 'other'])).code).toBe(0)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      consumer: { name: 'shop' },
      provider: { name: 'pets' },
    })
    const printed = await run([...args, '--out', '-'])
    expect(printed.code).toBe(0)
    expect(JSON.parse(printed.stdout).interactions).toEqual([])
  })

  it('exit 2 without --consumer, or when the mock cannot be reached', async () => {
    const missing = await run(['pact', server.url])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--consumer NAME is required')
    expect((await run(['pact', 'http://127.0.0.1:9', '--consumer', 'x'])).code).toBe(2)
  })
})
