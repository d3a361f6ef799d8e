import { readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'

/** Files (paths relative to `root`, `/`-separated) and the relative modules each imports, types included. */
export type ImportGraph = Map<string, string[]>

// Every relative specifier of a module: import/export … from (on the line of `from`, so a
// multi-line import counts), side-effect imports, import() calls and `import('…')` types.
const specifierPatterns = [
  /^[^'"\n]*\bfrom\s*['"](\.{1,2}\/[^'"\n]+)['"]/gm,
  /^\s*import\s*['"](\.{1,2}\/[^'"\n]+)['"]/gm,
  /\bimport\s*\(\s*['"](\.{1,2}\/[^'"\n]+)['"]\s*\)/g,
]

const sourceFile = /\.(ts|tsx|mts)$/

const listSources = (root: string, dir = ''): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`
    if (entry.isDirectory()) return listSources(root, path)
    return sourceFile.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })

/** The file a specifier written in `from` names: `.js` for `.ts`/`.tsx`, as NodeNext resolution reads it. */
const resolveSpecifier = (files: ReadonlySet<string>, from: string, specifier: string): string | undefined => {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier))
  const candidates = [
    target,
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.js$/, '.tsx'),
    target.replace(/\.mjs$/, '.mts'),
  ]
  return candidates.find((candidate) => files.has(candidate))
}

/** The graph of relative imports between the TypeScript sources under `root`. */
export const importGraph = (root: string): ImportGraph => {
  const files = listSources(root)
  const known = new Set(files)
  const graph: ImportGraph = new Map()
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    const targets = new Set<string>()
    for (const pattern of specifierPatterns) {
      for (const match of text.matchAll(pattern)) {
        const target = resolveSpecifier(known, file, match[1]!)
        if (target !== undefined) targets.add(target)
      }
    }
    graph.set(file, [...targets].sort())
  }
  return graph
}

/** Every import circle, each once, as the files along it (the first repeated at the end). */
export const importCircles = (graph: ImportGraph): string[][] => {
  const circles: string[][] = []
  const seen = new Set<string>()
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (file: string): void => {
    state.set(file, 'open')
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const circle = [...path.slice(path.indexOf(next)), next]
        const key = [...circle.slice(0, -1)].sort().join(' ')
        if (!seen.has(key)) {
          seen.add(key)
          circles.push(circle)
        }
      } else if (!state.has(next)) visit(next)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file)
  return circles
}

/** The folder of a file of the graph (`core/http/stage.ts` → `core/http`). */
export const folderOf = (file: string): string => posix.dirname(file)

/** The folders under `within` that files of each import, its own left out. */
export const folderImports = (graph: ImportGraph, within: string): Map<string, Set<string>> => {
  const inside = (file: string) => file.startsWith(`${within}/`)
  const imports = new Map<string, Set<string>>()
  for (const [file, targets] of graph) {
    if (!inside(file)) continue
    const from = folderOf(file)
    for (const target of targets) {
      const to = folderOf(target)
      if (!inside(target) || to === from) continue
      if (!imports.has(from)) imports.set(from, new Set())
      imports.get(from)!.add(to)
    }
  }
  return imports
}

/** Every pair of folders under `within` that import each other, each once: `a <-> b`. */
export const twoWayFolders = (graph: ImportGraph, within: string): string[] => {
  const imports = folderImports(graph, within)
  const pairs: string[] = []
  for (const [from, tos] of imports) {
    for (const to of tos) if (from < to && imports.get(to)?.has(from)) pairs.push(`${from} <-> ${to}`)
  }
  return pairs.sort()
}

/**
 * One layer of a house of folders: higher ranks import lower ones; `peers`
 * says whether its folders may import one another (`listed`: only by an
 * allowed edge).
 */
export interface Layer {
  name: string
  rank: number
  folders: readonly string[]
  peers: 'any' | 'listed'
}

/** An import from one folder to another of the same layer that is allowed; `*` stands for any folder. */
export interface AllowedEdge {
  from: string
  to: string
  why: string
}

/**
 * Every import under `within` that breaks the layers: one up to a higher
 * layer, one to a peer that the layer or `allowed` does not allow; and every
 * folder that no layer names. Imports within a folder, and between a folder
 * and its own subfolders (a feature's parts: journal/ and journal/stream/), are free.
 */
export const layerBreaches = (
  graph: ImportGraph,
  within: string,
  layers: readonly Layer[],
  allowed: readonly AllowedEdge[],
): string[] => {
  const layerOf = new Map(layers.flatMap((layer) => layer.folders.map((folder) => [folder, layer] as const)))
  const breaches = new Set<string>()
  for (const [file, targets] of graph) {
    if (!file.startsWith(`${within}/`)) continue
    const from = folderOf(file)
    const own = layerOf.get(from)
    if (!own) {
      breaches.add(`${from}: in no layer`)
      continue
    }
    for (const target of targets) {
      const to = folderOf(target)
      if (!target.startsWith(`${within}/`) || to === from) continue
      if (to.startsWith(`${from}/`) || from.startsWith(`${to}/`)) continue
      const theirs = layerOf.get(to)
      if (!theirs) continue // reported as its own folder's breach
      if (theirs.rank < own.rank) continue
      const listed = allowed.some((edge) => (edge.from === from || edge.from === '*') && edge.to === to)
      if (theirs.rank === own.rank && (own.peers === 'any' || listed)) continue
      breaches.add(`${file} -> ${target} (${own.name} -> ${theirs.name})`)
    }
  }
  return [...breaches].sort()
}

/** Folders under `root`, but those named in `except`, with more than `max` loose sources (.ts/.tsx directly in them). */
export const crowdedFolders = (root: string, max: number, except: readonly string[] = []): string[] => {
  const counts = new Map<string, number>()
  for (const file of listSources(root)) {
    if (!/\.tsx?$/.test(file)) continue
    counts.set(folderOf(file), (counts.get(folderOf(file)) ?? 0) + 1)
  }
  return [...counts]
    .filter(([folder, count]) => count > max && !except.includes(folder))
    .map(([folder, count]) => `${folder}: ${count} files`)
    .sort()
}
