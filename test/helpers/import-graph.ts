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
