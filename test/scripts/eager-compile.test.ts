import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Parser } from 'acorn'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain JavaScript without types (run by scripts/bundle.mjs)
import { compileEagerly, startChunks } from '../../scripts/eager-compile.mjs'

const dir = mkdtempSync(join(tmpdir(), 'eager-compile-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Every kind of function a bundle holds, and what each gives when run.
const source = `#!/usr/bin/env node
export const arrow = (x) => x + 1
export const asyncArrow = async () => 2
export const expression = function named(n) { return n * 3 }
export function declared() { return 4 }
export const object = { method() { return 5 }, get getter() { return 6 }, set setter(v) {}, value: () => 7 }
export class Klass { field = () => 8; method() { return 9 } static make() { return new Klass() } }
export const called = ((y) => y * 10)(1)
export const nested = () => () => 11
export default function () { return 12 }
`

const run = async (file: string) => {
  const m = await import(`${pathToFileURL(file).href}?${Math.random()}`)
  return [
    m.arrow(0),
    await m.asyncArrow(),
    m.expression(1),
    m.declared(),
    m.object.method(),
    m.object.getter,
    m.object.value(),
    new m.Klass().field(),
    m.Klass.make().method(),
    m.called,
    m.nested()(),
    m.default(),
  ]
}

describe('compileEagerly', () => {
  it('parenthesises every function expression and arrow, not methods, accessors or declarations; the module runs the same', async () => {
    const before = join(dir, 'before.mjs')
    const after = join(dir, 'after.mjs')
    writeFileSync(before, source)
    writeFileSync(after, source)
    // arrow, asyncArrow, expression, value, field, the called arrow, nested's two arrows.
    expect(compileEagerly(after)).toBe(8)
    const rewritten = readFileSync(after, 'utf8')
    expect(rewritten).toContain('export const arrow = ((x) => x + 1)')
    expect(rewritten).toContain('export const expression = (function named(n) { return n * 3 })')
    expect(rewritten).toContain('export const nested = (() => (() => 11))')
    expect(rewritten).toContain('method() { return 5 }')
    expect(rewritten).toContain('export function declared()')
    expect(rewritten.startsWith('#!/usr/bin/env node\n')).toBe(true)
    expect(() =>
      Parser.parse(rewritten, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true }),
    ).not.toThrow()
    expect(await run(after)).toEqual(await run(before))
    expect(await run(after)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
  })

  it('leaves a file without function expressions as it is', () => {
    const file = join(dir, 'plain.mjs')
    writeFileSync(file, 'export const a = 1\nexport function b() {}\n')
    expect(compileEagerly(file)).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe('export const a = 1\nexport function b() {}\n')
  })
})

describe('startChunks', () => {
  const metafile = {
    outputs: {
      'dist/bin.js': { entryPoint: 'src/bin.ts', imports: [{ path: 'dist/main.js', kind: 'dynamic-import' }] },
      'dist/main.js': {
        entryPoint: 'src/node/main.ts',
        imports: [
          { path: 'dist/chunk-a.js', kind: 'import-statement' },
          { path: 'dist/faker.js', kind: 'dynamic-import' },
          { path: 'node:http', kind: 'import-statement', external: true },
        ],
      },
      'dist/chunk-a.js': { imports: [{ path: 'dist/chunk-b.js', kind: 'import-statement' }] },
      'dist/chunk-b.js': { imports: [{ path: 'dist/chunk-a.js', kind: 'import-statement' }] },
      'dist/faker.js': { imports: [] },
    },
  }

  it('the entry’s chunk and those it imports statically, transitively; not dynamic imports or externals', () => {
    expect(startChunks(metafile, 'src/node/main.ts')).toEqual(['dist/main.js', 'dist/chunk-a.js', 'dist/chunk-b.js'])
  })

  it('throws for an entry no chunk holds', () => {
    expect(() => startChunks(metafile, 'src/nope.ts')).toThrow('no chunk for src/nope.ts')
  })
})
