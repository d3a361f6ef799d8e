import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')

// The Vitest recipe of the README is examples/consumer, which npm run test:testcontainers type-checks
// and runs from the packed tarball: the README must show those files as they are.
describe('README: CI recipe', () => {
  it.each(['examples/consumer/src/pet-names.ts', 'examples/consumer/test/pet-names.test.ts'])(
    'shows %s exactly',
    (path) => {
      expect(read('README.md')).toContain('```ts\n' + read(path) + '```\n')
    },
  )
})
