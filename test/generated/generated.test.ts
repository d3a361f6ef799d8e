import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { generatedFiles } from '../../scripts/artefacts.js'
import { bundledSpec, parseSpec, readFixtures } from '../../src/index.js'
import { fixturePets, packageVersion } from '../../src/generated/contract.js'
import { specText } from '../../src/generated/contract-text.js'

const root = new URL('../..', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')

const expectedFiles = await generatedFiles()

describe('generated artefacts (npm run generate)', () => {
  it.each(Object.entries(expectedFiles))('%s is up to date with its sources', (path, expected) => {
    // Stale? Run `npm run generate` and commit the result.
    expect(read(path)).toBe(expected)
  })

  it('embed openapi.yaml, the fixtures and the version exactly', () => {
    expect(specText).toBe(read('openapi.yaml'))
    const runtime = parseSpec(specText)
    expect(fixturePets).toEqual(
      readFixtures(fileURLToPath(new URL('fixtures/pets.yaml', root)), runtime.componentValidator('Pet')),
    )
    expect(packageVersion).toBe(JSON.parse(read('package.json')).version)
    expect(bundledSpec().document).toEqual(runtime.document)
    // The library entry holds the text from the start (msw's bundle loads it on first use).
    expect(bundledSpec().text).toBe(read('openapi.yaml'))
  })

  it('validators compile nothing at run time: no eval, new Function or require', () => {
    const code = read('src/generated/validators.ts')
    expect(code).not.toMatch(/\bnew Function\b|\beval\(|\brequire\(/)
  })

  it('precompiled validators agree with Ajv compiling the document at run time, errors included', () => {
    const runtime = parseSpec(specText)
    const bundled = bundledSpec()
    const schemas = ['Pet', 'NewPet', 'Pets', 'Error', 'PetStatus']
    const value = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          id: fc.oneof(fc.integer(), fc.double()),
          name: fc.jsonValue(),
          categoryId: fc.jsonValue(),
          status: fc.string(),
        },
        { requiredKeys: [] },
      ),
    )
    fc.assert(
      fc.property(fc.constantFrom(...schemas), value, (name, input) => {
        const a = runtime.componentValidator(name)
        const b = bundled.componentValidator(name)
        expect(b(input)).toBe(a(input))
        expect(b.errors?.[0]?.instancePath).toBe(a.errors?.[0]?.instancePath)
        expect(b.errors?.[0]?.keyword).toBe(a.errors?.[0]?.keyword)
      }),
      { numRuns: 300 },
    )
  })
})
