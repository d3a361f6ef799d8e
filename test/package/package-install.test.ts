import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string
  version: string
  bin: Record<string, string>
  exports: Record<string, string | Record<string, string>>
}
const temp = mkdtempSync(join(tmpdir(), 'petstore-mock-package-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))

/** Every file the package's exports and bin point at, as `package/…` paths in a tarball. */
const entryPoints = (): string[] => {
  const targets = Object.values(pkg.exports).flatMap((target) =>
    typeof target === 'string' ? [target] : Object.values(target),
  )
  return [...new Set([...targets, ...Object.values(pkg.bin)])].map((file) => `package/${file.replace(/^\.\//, '')}`)
}

describe('npm pack', () => {
  it('leaves its tarball where git ignores it (npm pack writes <name>-<version>.tgz into the clone)', () => {
    const tarball = `${pkg.name}-${pkg.version}.tgz`
    const ignored = spawnSync('git', ['check-ignore', '--no-index', '-q', tarball], { cwd: root, encoding: 'utf8' })
    expect(ignored.status, `${tarball} is not ignored: ${ignored.stderr}`).toBe(0)
  })

  it('of an unbuilt clone builds first (the prepare script): the tarball has every file exports and bin name', () => {
    // A copy of the sources without dist/; node_modules is the checkout's (nothing to download).
    const tree = join(temp, 'tree')
    for (const entry of [
      'package.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'openapi.yaml',
      'fixtures',
      'src',
      'scripts',
    ]) {
      cpSync(join(root, entry), join(tree, entry), { recursive: true, filter: (src) => !src.includes('node_modules') })
    }
    symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'))
    expect(existsSync(join(tree, 'dist'))).toBe(false)
    const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', temp], {
      cwd: tree,
      encoding: 'utf8',
      timeout: 120_000,
    })
    expect(packed.status, packed.stderr).toBe(0)
    const tarball = join(temp, `${pkg.name}-${pkg.version}.tgz`)
    const listed = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n')
    expect(listed).toEqual(
      expect.arrayContaining([...entryPoints(), 'package/dist/index.d.ts', 'package/openapi.yaml']),
    )
    expect(listed.filter((file) => file.startsWith('package/dist/chunks/')).length).toBeGreaterThan(0)
    expect(listed.filter((file) => file.startsWith('package/src/') || file.startsWith('package/scripts/'))).toEqual([])
    // The build's record of its inputs (scripts/build-stamp.mjs) stays in the clone.
    expect(existsSync(join(tree, 'dist/.build-stamp'))).toBe(true)
    expect(listed).not.toContain('package/dist/.build-stamp')
  }, 120_000)
})

describe("require('petstore-mock') from CommonJS (Node 22.12+ loads the ES modules)", () => {
  it('every subpath the package exports', () => {
    const consumer = join(temp, 'consumer')
    mkdirSync(join(consumer, 'node_modules'), { recursive: true })
    symlinkSync(root, join(consumer, 'node_modules', pkg.name))
    const script = join(consumer, 'require.cjs')
    writeFileSync(
      script,
      [
        "const { createApp } = require('petstore-mock')",
        "const { createHandlers } = require('petstore-mock/msw')",
        "const { createMockClient } = require('petstore-mock/client')",
        "const types = require('petstore-mock/types')",
        "const { PetstoreMockContainer } = require('petstore-mock/testcontainers')",
        "const { version } = require('petstore-mock/package.json')",
        "createApp().request('/v1/pets', { headers: { Authorization: 'Bearer x' } }).then((res) => console.log(JSON.stringify({",
        '  status: res.status,',
        '  kinds: [createApp, createHandlers, createMockClient, PetstoreMockContainer].map((f) => typeof f),',
        '  types: typeof types,',
        '  version,',
        '})))',
      ].join('\n'),
    )
    const result = spawnSync(process.execPath, [script], { cwd: consumer, encoding: 'utf8', timeout: 20_000 })
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual({
      status: 200,
      kinds: ['function', 'function', 'function', 'function'],
      types: 'object',
      version: pkg.version,
    })
  })
})
