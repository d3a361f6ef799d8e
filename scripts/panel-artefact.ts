import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type BuildOptions, buildSync } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))
const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')

// Same input, same bytes: no source maps, no paths, no timestamps in the output.
const common: BuildOptions = {
  absWorkingDir: root,
  bundle: true,
  minify: true,
  write: false,
  sourcemap: false,
  legalComments: 'none',
  charset: 'ascii',
  logLevel: 'silent',
  target: ['chrome111', 'firefox115', 'safari16.4'],
}

const build = (entry: string, options: BuildOptions = {}): string => {
  const result = buildSync({ ...common, ...options, entryPoints: [entry] })
  const [file] = result.outputFiles ?? []
  if (!file) throw new Error(`esbuild produced nothing for ${entry}`)
  return file.text
}

const preactNotice = '/*! Preact | MIT License | Copyright (c) 2015-present Jason Miller */'

/** The QA panel (src/panel/): its page, its script (Preact included) and styles, bundled by esbuild. */
export const panelModule = (header: (sources: string) => string): string => {
  const script = build('src/panel/main.tsx', {
    format: 'esm',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    banner: { js: preactNotice },
  })
  const styles = build('src/panel/panel.css', { loader: { '.css': 'css' } })
  const html = read('src/panel/index.html')
  const icon = read('src/panel/favicon.svg')
  return [
    header('src/panel/ (esbuild)'),
    '',
    '/** The page; `{{operations}}` and `{{version}}` are filled in when served. */',
    `export const panelHtml = ${JSON.stringify(html)}`,
    '',
    '/** The script (an ES module). */',
    `export const panelScript = ${JSON.stringify(script)}`,
    '',
    '/** The styles. */',
    `export const panelStyles = ${JSON.stringify(styles)}`,
    '',
    '/** The icon. */',
    `export const panelIcon = ${JSON.stringify(icon)}`,
    '',
  ].join('\n')
}
