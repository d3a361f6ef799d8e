import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { binPath } from '../helpers/spawn-server.js'
import { packageVersion } from '../../src/generated/contract.js'

// Issue 41 §5: one version, carried by the package, the CHANGELOG, the command and the image.
const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
const version: string = JSON.parse(read('package.json')).version
const semver = /^\d+\.\d+\.\d+$/

describe('the release version', () => {
  it('is a version, and the CHANGELOG is cut into versions, the latest the package’s', () => {
    expect(version).toMatch(semver)
    const headings = [...read('CHANGELOG.md').matchAll(/^## (.+)$/gm)].map((match) => match[1]!)
    // What is still to come may be listed under "Unreleased", above the versions only.
    const versions = headings.filter((heading, i) => !(i === 0 && heading === 'Unreleased'))
    expect(versions.length).toBeGreaterThanOrEqual(3)
    for (const heading of versions) expect(heading).toMatch(semver)
    expect(versions[0]).toBe(version)
    const ordered = [...versions].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))
    expect(versions).toEqual(ordered)
    expect(new Set(versions).size).toBe(versions.length)
  })

  it('is what the lock file, the generated contract, the admin document and `petstore-mock --version` say', () => {
    const lock = JSON.parse(read('package-lock.json'))
    expect(lock.version).toBe(version)
    expect(lock.packages[''].version).toBe(version)
    expect(packageVersion).toBe(version)
    expect(parse(read('admin-openapi.yaml')).info.version).toBe(version)
    const run = spawnSync(process.execPath, [binPath, '--version'], { encoding: 'utf8', timeout: 30_000 })
    expect(run.status).toBe(0)
    expect(run.stdout).toBe(`${version}\n`)
  })

  it('is the image’s org.opencontainers.image.version label when built without --build-arg', () => {
    const dockerfile = read('Dockerfile')
    const stages = dockerfile.split(/^FROM /m)
    const final = stages.at(-1)!
    expect(final).toMatch(new RegExp(`^ARG VERSION=${version.replaceAll('.', '\\.')}$`, 'm'))
    expect(final).toMatch(/org\.opencontainers\.image\.version="\$\{VERSION\}"/)
  })
})
