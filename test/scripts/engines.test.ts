import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { engineMismatches, pinnedNode } from '../../scripts/node-runtime.mjs'

// semver as npm uses it to check engines (a dependency of the dev tools here; npm carries its own).
const { satisfies } = createRequire(import.meta.url)('semver') as {
  satisfies: (version: string, range: string, options: { includePrerelease: boolean }) => boolean
}
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'))

describe('engineMismatches: the packages npm warns EBADENGINE about', () => {
  it('of this lock file: this package and its dev tools on Node 20, none on the pinned Node', () => {
    expect(engineMismatches(lock, 'v20.20.2', satisfies)).toEqual(expect.arrayContaining(['petstore-mock', 'vitest']))
    expect(engineMismatches(lock, `v${pinnedNode}`, satisfies)).toEqual([])
  })

  it('leaves optional packages and packages without engines out, and names nested ones by their own name', () => {
    const names = engineMismatches(
      {
        name: 'root',
        packages: {
          '': { engines: { node: '>=22' } },
          'node_modules/a': { engines: { node: '>=22' }, optional: true },
          'node_modules/b': {},
          'node_modules/c/node_modules/@scope/d': { engines: { node: '^24' } },
          'node_modules/e': { engines: { node: '>=18' } },
        },
      },
      'v20.20.2',
      satisfies,
    )
    expect(names).toEqual(['root', '@scope/d'])
  })
})
