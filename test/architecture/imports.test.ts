import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { importCircles, importGraph } from '../helpers/import-graph.js'

const src = fileURLToPath(new URL('../../src', import.meta.url))
const graph = importGraph(src)

describe('imports in src/', () => {
  it('form no circle, type-only imports included', () => {
    expect(importCircles(graph)).toEqual([])
  })

  it('point one way: the core imports nothing of the hosts above it', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      file.startsWith('core/')
        ? targets
            .filter((target) => !target.startsWith('core/') && !target.startsWith('generated/'))
            .map((target) => `${file} -> ${target}`)
        : [],
    )
    expect(upward).toEqual([])
  })

  it('are read whole: the graph knows the core and the hosts', () => {
    expect(graph.get('core/app.ts')).toContain('core/pipeline/api-chains.ts')
    expect(graph.get('node/main.ts')?.some((target) => target.startsWith('core/'))).toBe(true)
    // A type-only import, one on several lines, and one that names nothing are edges too.
    expect(graph.get('core/http/respond.ts')).toContain('core/http/stage.ts')
    expect(graph.get('core/app.ts')).toContain('core/sessions/snapshot.ts')
    expect(graph.get('core/journal/journal-stage.ts')).toContain('core/journal/journal-notes.ts')
  })
})

describe('importCircles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-graph-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }

  it('finds a type-only circle across folders, a multi-line import and an import() type', () => {
    write('a/one.ts', "import type { Two } from '../b/two.js'\nexport type One = { two: Two }\n")
    write('b/two.ts', "import type {\n  Three,\n} from './three.js'\nexport type Two = Three\n")
    write('b/three.ts', "export type Three = import('../a/one.js').One\n")
    write('c/alone.ts', "import { x } from './missing.js'\nexport const y = x\n")
    expect(importCircles(importGraph(dir))).toEqual([['a/one.ts', 'b/two.ts', 'b/three.ts', 'a/one.ts']])
  })
})
