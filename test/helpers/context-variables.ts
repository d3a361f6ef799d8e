import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ImportGraph } from './import-graph.js'

/**
 * The variables of hono's `ContextVariableMap` declared under `root` (`declare module 'hono'`),
 * each with the file that declares it.
 */
export const contextVariables = (root: string, graph: ImportGraph): Map<string, string> => {
  const declared = new Map<string, string>()
  for (const file of graph.keys()) {
    const text = readFileSync(join(root, file), 'utf8')
    const start = text.indexOf('interface ContextVariableMap')
    if (start === -1) continue
    const open = text.indexOf('{', start)
    let depth = 0
    let end = open
    for (; end < text.length; end++) {
      if (text[end] === '{') depth++
      else if (text[end] === '}' && --depth === 0) break
    }
    // The members at the map's own level: `name: type` or `name?: type` at the start of a line.
    let level = 0
    for (const line of text.slice(open + 1, end).split('\n')) {
      const member = level === 0 ? /^\s*([A-Za-z_$][\w$]*)\??\s*:/.exec(line) : null
      if (member) declared.set(member[1]!, file)
      for (const ch of line) level += ch === '{' ? 1 : ch === '}' ? -1 : 0
    }
  }
  return declared
}

// `c.get('name')`, `c.set('name', …)` and `c.var.name` (the context is `c`, `ctx` or `context`).
const uses = [
  /\b(?:c|ctx|context)\.(?:get|set)\(\s*['"]([A-Za-z_$][\w$]*)['"]/g,
  /\b(?:c|ctx|context)\.var\.([A-Za-z_$][\w$]*)/g,
]

/**
 * Every file under `root` that reads or sets a context variable (`c.get`, `c.set`, `c.var`)
 * declared in a module it does not import (nor is): `file: name (declared in module)`. A
 * variable read through hono's global map without an import is an edge the graph cannot see.
 */
export const unseenVariables = (root: string, graph: ImportGraph, within = ''): string[] => {
  const declared = contextVariables(root, graph)
  const breaches = new Set<string>()
  for (const [file, targets] of graph) {
    if (!file.startsWith(within)) continue
    const text = readFileSync(join(root, file), 'utf8')
    for (const pattern of uses) {
      for (const match of text.matchAll(pattern)) {
        const module = declared.get(match[1]!)
        if (module === undefined || module === file || targets.includes(module)) continue
        breaches.add(`${file}: ${match[1]} (declared in ${module})`)
      }
    }
  }
  return [...breaches].sort()
}
