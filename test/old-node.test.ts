import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { findOldNode, withoutCompileCache } from './helpers/old-node.js'
import { binPath, spawnServer } from './helpers/spawn-server.js'

// npx petstore-mock on a Node older than engines (>=22.12): it runs where it can (Node 20.16+, no
// compile cache), else one line naming the Node it needs and the container. Never a stack trace.
const oldNode = findOldNode()
const stackFrame = /^\s+at /m

const servesOn = async (node: string[]) => {
  const server = await spawnServer(['--log', 'silent'], {}, 10_000, node)
  try {
    const res = await fetch(`${server.url}/v1/pets`, { headers: { Authorization: 'Bearer x' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toHaveLength(12)
    const missing = await fetch(`${server.url}/v1/pets/999`, { headers: { Authorization: 'Bearer x' } })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ code: 'not_found', message: 'No pet with id 999.', status: 404 })
  } finally {
    expect(await server.stop('SIGTERM')).toBe(0)
  }
  expect(server.stderr()).toContain('petstore-mock 0.1.0 listening on http://127.0.0.1:')
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

describe('findOldNode', () => {
  it('takes PETSTORE_MOCK_OLD_NODE, and refuses one that is not older than 22.12', () => {
    expect(() => findOldNode({ PETSTORE_MOCK_OLD_NODE: process.execPath })).toThrow(/is not a Node < 22.12/)
    expect(() => findOldNode({ PETSTORE_MOCK_OLD_NODE: '/nonexistent/node' })).toThrow(/is not a Node < 22.12/)
    if (oldNode.real) expect(findOldNode({ PETSTORE_MOCK_OLD_NODE: oldNode.argv[0] })).toEqual(oldNode)
  })
})
