import { spawnSync } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildInputs, isStale, stampFile } from '../../scripts/build-stamp.mjs'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const script = join(repo, 'scripts/build-stamp.mjs')
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }

// A project with this package's build inputs and scripts, whose build only counts itself and writes
// dist/bin.js (the real one takes seconds); its `npm start` runs the real prestart.
let root: string
const builds = () => readFileSync(join(root, 'builds.log'), 'utf8').split('\n').filter(Boolean).length
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true })
  writeFileSync(join(root, path), text)
}
const npmStart = () => spawnSync('npm', ['start', '--silent'], { cwd: root, encoding: 'utf8', timeout: 60_000 })

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'petstore-mock-build-stamp-'))
  write(
    'package.json',
    JSON.stringify({
      name: 'build-stamp-project',
      version: '1.0.0',
      private: true,
      scripts: {
        build: `node build.mjs && node ${JSON.stringify(script)} --write`,
        prestart: `node ${JSON.stringify(script)}`,
        start: 'node dist/bin.js',
      },
    }),
  )
  write(
    'build.mjs',
    [
      "import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'",
      "if (existsSync('fail-build')) process.exit(1)",
      "appendFileSync('builds.log', 'built\\n')",
      "mkdirSync('dist', { recursive: true })",
      "writeFileSync('dist/bin.js', 'console.log(`started`)\\n')",
      "writeFileSync('dist/index.js', '')",
    ].join('\n'),
  )
  write('builds.log', '')
  write('src/bin.ts', 'export {}\n')
  write('src/node/main.ts', 'export const main = 1\n')
  write('openapi.yaml', 'openapi: 3.0.3\n')
  write('fixtures/pets.yaml', 'pets: []\n')
  write('tsconfig.json', '{}\n')
  write('tsconfig.build.json', '{}\n')
  write('package-lock.json', '{}\n')
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('npm start builds only when the sources changed (scripts/build-stamp.mjs)', () => {
  it('is what this package runs: prestart checks, the build records what it built', () => {
    expect(pkg.scripts['prestart']).toBe('node scripts/build-stamp.mjs')
    expect(pkg.scripts['build']).toMatch(/ && node scripts\/build-stamp\.mjs --write$/)
  })

  it('the first start builds, the second does not', () => {
    const first = npmStart()
    expect([first.status, first.stdout.trim(), builds()]).toEqual([0, 'started', 1])
    const second = npmStart()
    expect([second.status, second.stdout.trim(), builds()]).toEqual([0, 'started', 1])
    expect(second.stderr).toContain('petstore-mock: dist/ is up to date with the sources, not rebuilt')
  }, 60_000)

  it('a changed source rebuilds, once', () => {
    appendFileSync(join(root, 'src/node/main.ts'), 'export const changed = 2\n')
    expect(isStale(root)).toBe(true)
    expect(npmStart().status).toBe(0)
    expect(builds()).toBe(2)
    expect(isStale(root)).toBe(false)
  }, 60_000)

  it('a failed build records nothing: the next start builds again', () => {
    write('fail-build', '')
    write('src/new.ts', 'export {}\n')
    expect(npmStart().status).not.toBe(0)
    rmSync(join(root, 'fail-build'))
    expect(isStale(root)).toBe(true)
    // The project's build, as npm would run it.
    spawnSync(process.execPath, ['build.mjs'], { cwd: root })
    spawnSync(process.execPath, [script, '--write'], { cwd: root })
    expect([isStale(root), builds()]).toEqual([false, 3])
  }, 60_000)

  it.each([
    ['src/node/cli/cli.ts', 'a new source file'],
    ['src/bin.ts', 'a changed source file'],
    ['openapi.yaml', 'the contract'],
    ['fixtures/pets.yaml', 'the fixtures'],
    ['package.json', 'package.json'],
    ['package-lock.json', 'the lock file'],
    ['tsconfig.json', 'tsconfig.json'],
    ['tsconfig.build.json', 'tsconfig.build.json'],
  ])('%s (%s) makes dist/ stale', (path) => {
    expect(isStale(root)).toBe(false)
    const before = (() => {
      try {
        return readFileSync(join(root, path), 'utf8')
      } catch {
        return undefined
      }
    })()
    write(path, `${before ?? ''}\n`)
    expect(isStale(root)).toBe(true)
    // Back as it was: the same inputs, the same stamp, whatever the modification times.
    if (before === undefined) rmSync(join(root, path))
    else write(path, before)
    expect(isStale(root)).toBe(false)
  })

  it('a new modification time alone does not', () => {
    const later = new Date(Date.now() + 60_000)
    utimesSync(join(root, 'src/bin.ts'), later, later)
    expect(isStale(root)).toBe(false)
  })

  it('a missing dist/bin.js or stamp does', () => {
    for (const path of ['dist/bin.js', stampFile]) {
      const text = readFileSync(join(root, path))
      rmSync(join(root, path))
      expect(isStale(root)).toBe(true)
      writeFileSync(join(root, path), text)
      expect(isStale(root)).toBe(false)
    }
  })

  it("hashes what the package's build reads", () => {
    const build = readFileSync(join(repo, 'tsconfig.build.json'), 'utf8')
    expect(build).toContain('"include": ["src"]')
    const bundle = readFileSync(join(repo, 'scripts/bundle.mjs'), 'utf8')
    const imported = [...bundle.matchAll(/from '\.\/([\w-]+\.mjs)'/g)].map((match) => `scripts/${match[1]}`)
    expect(buildInputs).toEqual(expect.arrayContaining(['src', 'scripts/bundle.mjs', ...imported]))
  })
})
