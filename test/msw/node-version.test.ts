import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { nodeTooOld } from '../../src/core/node-version.js'
import { checkNodeVersion } from '../../src/msw/node-version.js'
import { findOldNode } from '../helpers/old-node.js'

// petstore-mock/msw on a Node.js older than msw 3 needs (22.12): one line naming the Node it needs,
// thrown by createHandlers(), instead of msw 3 loading and each request failing deep in
// @mswjs/interceptors (`Promise.withResolvers is not a function`, on Node.js 20).
const message = (version: string) =>
  `petstore-mock/msw: needs Node.js 22.12 or later, as msw 3 does (this is Node.js ${version})`

const thrownBy = (version: string | undefined): unknown => {
  try {
    checkNodeVersion(version)
  } catch (error) {
    return error
  }
  return undefined
}

describe('checkNodeVersion', () => {
  it.each(['20.20.2', 'v20.19.0', '22.11.0', '18.20.4', '21.7.3'])(
    '%s: one line naming Node.js 22.12, no frames',
    (version) => {
      const error = thrownBy(version) as Error
      expect(error.name).toBe('PetstoreMockError')
      expect(error.message).toBe(message(version.replace(/^v/, '')))
      expect(error.stack).toBe(`PetstoreMockError: ${error.message}`)
    },
  )

  it.each(['22.12.0', 'v22.23.5', '23.0.0', '24.22.3', '26.1.0'])('%s: nothing', (version) => {
    expect(thrownBy(version)).toBeUndefined()
  })

  it('in a browser (no process.versions.node): nothing', () => {
    expect(nodeTooOld('petstore-mock/msw', [22, 12], 'as msw 3 does', undefined)).toBeUndefined()
  })
})

const oldNode = findOldNode()
const entry = fileURLToPath(new URL('../../dist/msw/index.js', import.meta.url))

describe.runIf(oldNode.real)(`the built petstore-mock/msw on ${oldNode.label}`, () => {
  it('createHandlers() throws the one line (msw/node loaded beside it, as in a set-up file)', () => {
    const script = `
      import { setupServer } from 'msw/node'
      const { createHandlers } = await import(${JSON.stringify(entry)})
      try {
        setupServer(...createHandlers({ origins: 'any' }))
        console.log('no error')
      } catch (error) {
        console.log(JSON.stringify({ name: error.name, stack: error.stack }))
      }`
    const result = spawnSync(oldNode.argv[0]!, [...oldNode.argv.slice(1), '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(result.stderr).toBe('')
    const version = spawnSync(oldNode.argv[0]!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
    expect(JSON.parse(result.stdout)).toEqual({
      name: 'PetstoreMockError',
      stack: `PetstoreMockError: ${message(version)}`,
    })
  })
})
