import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { pinnedNode, supportsNode } from '../../scripts/node-runtime.mjs'
import { findOldNode, withoutCompileCache } from '../helpers/old-node.js'
import { binPath, spawnServer } from '../helpers/spawn-server.js'
import { bearer } from '../helpers/auth.js'
import { packageVersion } from '../../src/generated/contract.js'

// npx petstore-mock on a Node older than engines (>=22.12): it runs where it can (Node 20.16+, no
// compile cache), else one line naming the Node it needs and the container. Never a stack trace.
const oldNode = findOldNode()
const stackFrame = /^\s+at /m

const servesOn = async (node: string[]) => {
  const server = await spawnServer(['--log', 'silent'], {}, 10_000, node)
  try {
    const res = await fetch(`${server.url}/v1/pets`, { headers: bearer('x') })
    expect(res.status).toBe(200)
    expect(await res.json()).toHaveLength(12)
    const missing = await fetch(`${server.url}/v1/pets/999`, { headers: bearer('x') })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ code: 'not_found', message: 'No pet with id 999.', status: 404 })
  } finally {
    expect(await server.stop('SIGTERM')).toBe(0)
  }
  expect(server.stderr()).toContain(`petstore-mock ${packageVersion} listening on http://127.0.0.1:`)
  expect(server.stderr()).not.toMatch(stackFrame)
  expect(server.stderr()).not.toMatch(/Error/)
}

describe('the built bin on a Node older than 22.12', () => {
  it(`serves on ${oldNode.label}`, () => servesOn(oldNode.argv))

  it('serves without module.enableCompileCache (Node 20 has none: the bin detects it and does without)', () =>
    servesOn(withoutCompileCache))

  it('without process.getBuiltinModule (Node < 20.16): exit code 1, one line naming the Node it needs and the container', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'data:text/javascript,delete%20process.getBuiltinModule', binPath, '--port', '0'],
      { encoding: 'utf8', timeout: 10_000 },
    )
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      `petstore-mock needs Node.js 22.12 or later (this is Node.js ${process.versions.node}); ` +
        'or run the container: docker run --rm -p 4010:4010 petstore-mock\n',
    )
  })
})

describe.runIf(oldNode.real)(`petstore-mock/testcontainers on ${oldNode.label}`, () => {
  it('one line naming the Node.js Testcontainers 12.2 needs, before Testcontainers loads (its undici throws on Node 20)', () => {
    const entry = fileURLToPath(new URL('../../dist/testcontainers/index.js', import.meta.url))
    const result = spawnSync(
      oldNode.argv[0]!,
      [...oldNode.argv.slice(1), '--input-type=module', '-e', `await import(${JSON.stringify(entry)})`],
      {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        encoding: 'utf8',
        timeout: 30_000,
      },
    )
    const version = spawnSync(oldNode.argv[0]!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(
      `petstore-mock/testcontainers: needs Node.js 22.22 or later, as Testcontainers 12.2's engines say (this is Node.js ${version})`,
    )
    expect(result.stderr).not.toMatch(stackFrame)
    expect(result.stderr).not.toContain('undici')
  })
})

describe('findOldNode', () => {
  it('takes PETSTORE_MOCK_OLD_NODE, and refuses one that is not older than 22.12', () => {
    expect(() => findOldNode({ PETSTORE_MOCK_OLD_NODE: process.execPath })).toThrow(/is not a Node < 22.12/)
    expect(() => findOldNode({ PETSTORE_MOCK_OLD_NODE: '/nonexistent/node' })).toThrow(/is not a Node < 22.12/)
    if (oldNode.real) expect(findOldNode({ PETSTORE_MOCK_OLD_NODE: oldNode.argv[0] })).toEqual(oldNode)
  })
})

describe('scripts/node-runtime.mjs', () => {
  it.each([
    ['v20.20.2', false],
    ['20.16.0', false],
    ['v22.11.0', false],
    ['v22.12.0', true],
    ['22.23.3', true],
    ['v23.0.0', true],
    ['v24.21.0', true],
    ['v26.10.0', true],
    ['v18.20.4', false],
  ])('supportsNode(%s) is %s (engines: >=22.12)', (version, supported) => {
    expect(supportsNode(version)).toBe(supported)
  })

  it('fetches for an old machine the Node line the image runs, one engines accepts', () => {
    const line = /^FROM node:(\d+)-/m.exec(readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8'))?.[1]
    expect(pinnedNode.split('.')[0]).toBe(line)
    expect(supportsNode(pinnedNode)).toBe(true)
  })
})
