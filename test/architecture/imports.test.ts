import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import {
  type AllowedEdge,
  crowdedFolders,
  folderOf,
  importCircles,
  importGraph,
  type Layer,
  layerBreaches,
  twoWayFolders,
} from '../helpers/import-graph.js'
import { unseenVariables } from '../helpers/context-variables.js'

const src = fileURLToPath(new URL('../../src', import.meta.url))
const graph = importGraph(src)

/**
 * The house of src/core (docs/internals/architecture.md): the composition
 * roots on top, the sessions (the state port composed) under them, the
 * features in the middle, the floor below. A layer imports the layers below
 * it; features import one another only by the edges listed here.
 */
const house: Layer[] = [
  { name: 'root', rank: 3, peers: 'any', folders: ['core', 'core/admin', 'core/pipeline'] },
  { name: 'sessions', rank: 2, peers: 'any', folders: ['core/sessions'] },
  {
    name: 'feature',
    rank: 1,
    peers: 'listed',
    folders: [
      'core/access',
      'core/coverage',
      'core/deprecation',
      'core/faults',
      'core/faults/timelines',
      'core/journal',
      'core/journal/stream',
      'core/observe',
      'core/pets',
      'core/proxy',
      'core/rate-limit',
      'core/served',
    ],
  },
  {
    name: 'floor',
    rank: 0,
    peers: 'any',
    folders: [
      'core/async',
      'core/body',
      'core/budget',
      'core/http',
      'core/http/request',
      'core/log',
      'core/notes',
      'core/spec',
      'core/tenants',
      'core/time',
    ],
  },
]

/**
 * The only imports from one feature to another: none. Features meet through the floor (the notes a
 * stage leaves, notes/; the body reader, body/), the sessions port and the answer's listeners.
 */
const allowedFeatureEdges: AllowedEdge[] = []

/** Most .ts/.tsx files directly in one folder of src/ (generated code aside). */
const maxLooseFiles = 15

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

  it('point one way between folders: no two folders of the core import each other', () => {
    expect(twoWayFolders(graph, 'core')).toEqual([])
  })

  it('point one way between folders of the Node host: no two folders of src/node import each other', () => {
    expect(twoWayFolders(graph, 'node')).toEqual([])
  })

  it('keep the subcommands together: each one the command line loads lives under src/node/commands/', () => {
    const loaded = graph.get('node/cli/subcommands.ts') ?? []
    expect(loaded.length).toBeGreaterThanOrEqual(3)
    expect(loaded.filter((target) => !target.startsWith('node/commands/'))).toEqual([])
  })

  it('name the variables they share: a file that gets or sets a context variable imports the module declaring it', () => {
    expect(unseenVariables(src, graph)).toEqual([])
  })

  it('point down the house: features import the floor and the listed edges only, the floor only itself', () => {
    expect(layerBreaches(graph, 'core', house, allowedFeatureEdges)).toEqual([])
  })

  it('name the house as it is: every folder of the table exists, every allowed edge is used', () => {
    const folders = new Set([...graph.keys()].map(folderOf))
    expect(house.flatMap((layer) => layer.folders).filter((folder) => !folders.has(folder))).toEqual([])
    const used = (edge: AllowedEdge) =>
      [...graph].some(
        ([file, targets]) =>
          (edge.from === '*' || folderOf(file) === edge.from) &&
          folderOf(file) !== edge.to &&
          targets.some((target) => folderOf(target) === edge.to),
      )
    expect(allowedFeatureEdges.filter((edge) => !used(edge))).toEqual([])
  })

  it(`keep folders small: none in src/ but generated/ holds more than ${maxLooseFiles} loose files`, () => {
    expect(crowdedFolders(src, maxLooseFiles, ['generated'])).toEqual([])
  })

  it('are read whole: the graph knows the core and the hosts', () => {
    expect(graph.get('core/prepare-mock.ts')).toContain('core/pipeline/api-chains.ts')
    expect(graph.get('node/main.ts')?.some((target) => target.startsWith('core/'))).toBe(true)
    // A type-only import, one on several lines, and one that names nothing are edges too.
    expect(graph.get('core/http/respond.ts')).toContain('core/http/stage.ts')
    expect(graph.get('core/prepare-mock.ts')).toContain('core/sessions/snapshot.ts')
    expect(graph.get('core/journal/journal-listener.ts')).toContain('core/notes/request-notes.ts')
    // A subcommand is loaded by import() when named: an edge too.
    expect(graph.get('node/cli/subcommands.ts')).toContain('node/commands/verify/command.ts')
  })
})

describe('the checks, on small trees', () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-graph-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }

  it('importCircles finds a type-only circle across folders, a multi-line import and an import() type', () => {
    write('circle/a/one.ts', "import type { Two } from '../b/two.js'\nexport type One = { two: Two }\n")
    write('circle/b/two.ts', "import type {\n  Three,\n} from './three.js'\nexport type Two = Three\n")
    write('circle/b/three.ts', "export type Three = import('../a/one.js').One\n")
    write('circle/c/alone.ts', "import { x } from './missing.js'\nexport const y = x\n")
    expect(importCircles(importGraph(join(dir, 'circle')))).toEqual([
      ['a/one.ts', 'b/two.ts', 'b/three.ts', 'a/one.ts'],
    ])
  })

  it('twoWayFolders finds two folders importing each other through different files, which is no circle', () => {
    write('pair/core/a/one.ts', "import { two } from '../b/two.js'\nexport const one = two\n")
    write('pair/core/a/four.ts', 'export const four = 4\n')
    write('pair/core/b/two.ts', 'export const two = 2\n')
    write('pair/core/b/three.ts', "import type {} from '../a/four.js'\nexport const three = 3\n")
    write('pair/core/c/five.ts', "import { one } from '../a/one.js'\nexport const five = one\n")
    const pairGraph = importGraph(join(dir, 'pair'))
    expect(importCircles(pairGraph)).toEqual([])
    expect(twoWayFolders(pairGraph, 'core')).toEqual(['core/a <-> core/b'])
  })

  it('twoWayFolders finds, under src/node, a folder and its subfolder importing each other and a CLI its config', () => {
    write('host/node/store/open-store.ts', "export const open = () => import('./redis/redis-store.js')\n")
    write('host/node/store/store-errors.ts', 'export const errors = 0\n')
    write(
      'host/node/store/redis/redis-store.ts',
      "import { errors } from '../store-errors.js'\nexport const r = errors\n",
    )
    write('host/node/cli/cli.ts', "import type { Config } from '../config/config.js'\nexport type C = Config\n")
    write('host/node/config/config.ts', "import type {} from '../cli/cli.js'\nexport type Config = object\n")
    write('host/node/start/start.ts', "import type { Config } from '../config/config.js'\nexport type S = Config\n")
    const hostGraph = importGraph(join(dir, 'host'))
    expect(twoWayFolders(hostGraph, 'node')).toEqual(['node/cli <-> node/config', 'node/store <-> node/store/redis'])
    expect(twoWayFolders(hostGraph, 'core')).toEqual([])
  })

  it('unseenVariables finds a context variable got or set without importing its module, not one imported or declared', () => {
    const declare = (name: string) =>
      `declare module 'hono' {\n  interface ContextVariableMap {\n    ${name}: { nested: { deep: string } } | undefined\n    other?: string\n  }\n}\n`
    write(
      'vars/floor/notes.ts',
      `${declare('shaping')}export const note = (c: { set(k: string, v: unknown): void }) => c.set('shaping', undefined)\n`,
    )
    write(
      'vars/feat/reads.ts',
      "import type {} from '../floor/notes.js'\nexport const r = (c: { get(k: string): unknown }) => c.get('shaping')\n",
    )
    write(
      'vars/feat/unseen.ts',
      "export const u = (c: { get(k: string): unknown; var: Record<string, unknown> }) => [c.get('shaping'), c.var.other]\n",
    )
    write(
      'vars/feat/other-map.ts',
      "const m = new Map<string, number>()\nexport const o = m.get('shaping') ?? m.get('nested')\n",
    )
    const root = join(dir, 'vars')
    expect(unseenVariables(root, importGraph(root))).toEqual([
      'feat/unseen.ts: other (declared in floor/notes.ts)',
      'feat/unseen.ts: shaping (declared in floor/notes.ts)',
    ])
  })

  it('layerBreaches finds an import up, one between features that is not listed, and a folder in no layer', () => {
    write('layers/core/floor/f.ts', "import { g } from '../feat/g.js'\nexport const f = g\n")
    write('layers/core/feat/g.ts', "import { h } from '../other/h.js'\nexport const g = h\n")
    write(
      'layers/core/other/h.ts',
      "import { b } from '../body/b.js'\nimport { e } from '../floor/e.js'\nexport const h = b + e\n",
    )
    write('layers/core/body/b.ts', 'export const b = 1\n')
    write('layers/core/floor/e.ts', 'export const e = 1\n')
    write('layers/core/top/t.ts', "import { g } from '../feat/g.js'\nexport const t = g\n")
    write('layers/core/stray/s.ts', 'export const s = 1\n')
    const layers: Layer[] = [
      { name: 'root', rank: 2, peers: 'any', folders: ['core/top'] },
      { name: 'feature', rank: 1, peers: 'listed', folders: ['core/feat', 'core/other', 'core/body'] },
      { name: 'floor', rank: 0, peers: 'any', folders: ['core/floor'] },
    ]
    const allowed: AllowedEdge[] = [{ from: '*', to: 'core/body', why: 'fixture' }]
    expect(layerBreaches(importGraph(join(dir, 'layers')), 'core', layers, allowed)).toEqual([
      'core/feat/g.ts -> core/other/h.ts (feature -> feature)',
      'core/floor/f.ts -> core/feat/g.ts (floor -> feature)',
      'core/stray: in no layer',
    ])
  })

  it('crowdedFolders finds a folder of 16 loose files, not one of 15 or its subfolders, nor an exception', () => {
    for (let i = 0; i < 16; i++) write(`crowd/big/f${i}.ts`, 'export {}\n')
    for (let i = 0; i < 15; i++) write(`crowd/small/f${i}.tsx`, 'export {}\n')
    for (let i = 0; i < 10; i++) write(`crowd/big/sub/f${i}.ts`, 'export {}\n')
    for (let i = 0; i < 20; i++) write(`crowd/generated/f${i}.ts`, 'export {}\n')
    expect(crowdedFolders(join(dir, 'crowd'), 15, ['generated'])).toEqual(['big: 16 files'])
  })
})
