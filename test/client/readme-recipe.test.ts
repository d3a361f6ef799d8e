import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')

// The Vitest + Testcontainers recipe of the CI guide is examples/consumer, which
// npm run test:testcontainers type-checks and runs from the packed tarball: the guide must show
// those files as they are.
describe('docs/ci.md: the Testcontainers recipe', () => {
  it.each(['examples/consumer/src/pet-names.ts', 'examples/consumer/test/pet-names.test.ts'])(
    'shows %s exactly',
    (path) => {
      expect(read('docs/ci.md')).toContain('```ts\n' + read(path) + '```\n')
    },
  )
})
