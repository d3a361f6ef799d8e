import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// A folder of more files than a reader takes in at a glance wants sub-folders by what they do.
const mostLooseFiles = 15
const root = fileURLToPath(new URL('../..', import.meta.url))

const folders = (dir: string): string[] => [
  dir,
  ...readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => folders(join(dir, entry.name))),
]
const looseFiles = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isFile()).length

describe.each(['src/node', 'test/node'])('%s', (top) => {
  it(`has no folder of more than ${mostLooseFiles} loose files`, () => {
    const crowded = folders(join(root, top))
      .map((dir) => [relative(root, dir), looseFiles(dir)] as const)
      .filter(([, count]) => count > mostLooseFiles)
    expect(crowded).toEqual([])
  })
})
