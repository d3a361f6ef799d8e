import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, extname, isAbsolute, join, posix, relative, resolve } from 'node:path'
import GithubSlugger from 'github-slugger'
import { Lexer, type Token } from 'marked'

/** The documentation's pages under `root`: README.md, then every Markdown page under docs/, sorted, with / separators. */
export const docPages = (root: string): string[] => [
  'README.md',
  ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => posix.join('docs', path.split('\\').join('/')))
    .sort(),
]

/** What a Markdown page links to and which anchors its headings define. */
export interface PageLinks {
  /** Every link and image target, in document order, as written. */
  targets: string[]
  /** The anchors of its headings, as GitHub makes them (`-1`, `-2` for repeats). */
  anchors: Set<string>
}

// Tables keep their cells' inline tokens apart from `tokens`, lists in `items`.
const children = (token: Token): Token[] => {
  const nested: Token[] = []
  if ('tokens' in token && Array.isArray(token.tokens)) nested.push(...token.tokens)
  if (token.type === 'list') nested.push(...(token.items as Token[]))
  if (token.type === 'table') {
    for (const cell of token.header as { tokens: Token[] }[]) nested.push(...cell.tokens)
    for (const row of token.rows as { tokens: Token[] }[][]) for (const cell of row) nested.push(...cell.tokens)
  }
  return nested
}

// The heading's text as GitHub renders it: code spans by their content, inline HTML dropped.
const plainText = (tokens: Token[]): string =>
  tokens
    .map((token) => {
      if (token.type === 'html') return ''
      const nested = children(token)
      return nested.length > 0 ? plainText(nested) : 'text' in token ? String(token.text) : ''
    })
    .join('')

/** Parses a Markdown page with marked and collects its link targets and heading anchors. */
export const pageLinks = (markdown: string): PageLinks => {
  const slugger = new GithubSlugger()
  const targets: string[] = []
  const anchors = new Set<string>()
  const visit = (tokens: Token[]): void => {
    for (const token of tokens) {
      if (token.type === 'heading') anchors.add(slugger.slug(plainText(token.tokens ?? [])))
      if (token.type === 'link' || token.type === 'image') targets.push(token.href as string)
      visit(children(token))
    }
  }
  visit(Lexer.lex(markdown))
  return { targets, anchors }
}

const external = /^[a-z][a-z0-9+.-]*:|^\/\//i

/**
 * The relative links of `page` (a path under `root`) that do not resolve: a file or directory that
 * does not exist or lies outside `root`, or an `#anchor` that no heading of the Markdown page it
 * points to defines. Absolute URLs (`https:`, `mailto:`) are not checked.
 */
export const brokenLinks = (root: string, page: string): string[] => {
  const pagePath = resolve(root, page)
  const broken: string[] = []
  for (const target of pageLinks(readFileSync(pagePath, 'utf8')).targets) {
    if (external.test(target)) continue
    const hash = target.indexOf('#')
    const path = decodeURI(hash === -1 ? target : target.slice(0, hash))
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1))
    const file = path === '' ? pagePath : resolve(dirname(pagePath), path)
    const inside = relative(root, file)
    if (isAbsolute(path) || inside.startsWith('..') || isAbsolute(inside)) {
      broken.push(`${target}: outside the repository`)
    } else if (!existsSync(file)) {
      broken.push(`${target}: no such file`)
    } else if (anchor !== undefined) {
      if (extname(file) !== '.md') broken.push(`${target}: an anchor into a file that is not Markdown`)
      else if (!pageLinks(readFileSync(file, 'utf8')).anchors.has(anchor)) broken.push(`${target}: no such heading`)
    }
  }
  return broken
}
