import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Lexer, type Tokens } from 'marked'

/** The repository's root directory. */
export const docsRoot = fileURLToPath(new URL('../../', import.meta.url))

/** A page of the repository as text (path relative to the root). */
export const readPage = (path: string): string => readFileSync(join(docsRoot, path), 'utf8')

/**
 * The tables of a Markdown page, parsed by marked: each as its header texts and its rows of cell
 * texts (the Markdown source of each cell, `\|` already unescaped).
 */
export const pageTables = (markdown: string): { header: string[]; rows: string[][] }[] =>
  new Lexer()
    .lex(markdown)
    .filter((token): token is Tokens.Table => token.type === 'table')
    .map((table) => ({
      header: table.header.map((cell) => cell.text),
      rows: table.rows.map((row) => row.map((cell) => cell.text)),
    }))

/** The contents of the code spans of a cell, in order: "`--port` or `-p`" gives ["--port", "-p"]. */
export const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '')
