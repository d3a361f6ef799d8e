import { existsSync, globSync, readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { docPages } from '../helpers/doc-links.js'
import { recipeFiles } from './recipe-files.js'

// Every `src/…` path the documentation names is one of the repository's, read from the pages at run
// time: a file moved or renamed leaves no page pointing at the old place (docs/reference/robustness.md
// once named src/core/journal/event-streams.ts, which never existed).
const root = fileURLToPath(new URL('../../', import.meta.url))
const pages = docPages(root)

/** `src/…` at a word's start (not `/src/…`, a URL's path): its characters up to what cannot be in a path. */
const sourcePath = /(?<![\w./-])src\/[\w./*{},<>-]*/g

/**
 * The repository's source paths a page names, with their line numbers: a sentence's full stop or
 * comma after one left out; a recipe's own files (a user's project, `src/main.ts`) are not the
 * repository's.
 */
const sourcePaths = (page: string, text: string): { path: string; line: number }[] => {
  const ownFiles = new Set(page.startsWith('docs/recipes/') ? recipeFiles(page).map((file) => file.path) : [])
  return text.split('\n').flatMap((line, i) =>
    [...line.matchAll(sourcePath)]
      .map((match) => match[0].replace(/[.,]+$/, ''))
      .filter((path) => !ownFiles.has(path))
      .map((path) => ({ path, line: i + 1 })),
  )
}

/** Whether a path (or, with `*`, `{a,b}`, a glob) names something in the repository. */
const exists = (path: string): boolean =>
  /[*{]/.test(path) ? globSync(path, { cwd: root }).length > 0 : existsSync(join(root, path))

describe('the src/ paths the documentation names', () => {
  it('finds them (the scan reads what it should)', () => {
    const named = pages.flatMap((page) => sourcePaths(page, readFileSync(join(root, page), 'utf8')))
    expect(named.length).toBeGreaterThan(40)
    expect(sourcePaths('docs/x.md', 'see `src/core/app.ts`. And src/node/, src/a.ts, then /src/main.ts')).toEqual([
      { path: 'src/core/app.ts', line: 1 },
      { path: 'src/node/', line: 1 },
      { path: 'src/a.ts', line: 1 },
    ])
    expect(sourcePaths('docs/recipes/vite.md', '`src/main.ts` starts the worker')).toEqual([])
  })

  it.each(pages)('%s: every one exists', (page) => {
    const missing = sourcePaths(page, readFileSync(join(root, page), 'utf8'))
      .filter(({ path }) => !exists(path))
      .map(({ path, line }) => `${page}:${line}: ${path}`)
    expect(missing).toEqual([])
  })
})
