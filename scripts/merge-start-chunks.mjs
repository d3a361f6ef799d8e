// Folds the chunks a start loads into the entry's own chunk, after esbuild's code splitting.
// esbuild gives every module reached both by the start and by code loaded on demand (the Redis store,
// --spec files, the subcommands, prom-client's scrape) a chunk of its own, shared by both: a start
// loaded 16 modules, and each costs Node a resolution (realpath, the package scope), a file and a
// compile cache entry to read, a module record to link: about 0.4 ms each on the 2-vCPU machine.
// Code loaded on demand always comes after the entry chunk has run, so those shared chunks may live
// inside it: the entry's chunk is bundled once more with its start chunks inlined and their exports
// re-exported under unique names, and each folded chunk's file becomes a one-line re-export of those
// names from the entry's chunk (live bindings: the same module instances), which only code loaded on
// demand imports. The chunks a Worker's entry reaches stay as they are: a Worker has a module map of
// its own, and must not run the entry's chunk.
// Plain JavaScript, run by scripts/bundle.mjs.
import { readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { build } from 'esbuild'

const staticImports = (outputs, chunk) =>
  outputs[chunk].imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path)

const closure = (outputs, from) => {
  const chunks = new Set([from])
  for (const chunk of chunks) for (const path of staticImports(outputs, chunk)) chunks.add(path)
  return chunks
}

const outputOf = (outputs, entry) => {
  const found = Object.keys(outputs).find((path) => outputs[path].entryPoint === entry)
  if (found === undefined) throw new Error(`no chunk for ${entry}`)
  return found
}

/**
 * The chunks to fold into `entry`'s chunk: those it imports statically, directly or not, that no
 * entry of `apart` (a Worker's) reaches.
 */
export const chunksToFold = (metafile, entry, apart = []) => {
  const { outputs } = metafile
  const main = outputOf(outputs, entry)
  const kept = new Set(apart.flatMap((e) => [...closure(outputs, outputOf(outputs, e))]))
  return { main, folded: [...closure(outputs, main)].filter((c) => c !== main && !kept.has(c)) }
}

const asName = (index, name) => `${name}$start${index}`

/** Folds the start chunks into `entry`'s chunk (see above); returns the folded chunks' paths. */
export const mergeStartChunks = async (metafile, entry, apart = []) => {
  const { outputs } = metafile
  const { main, folded } = chunksToFold(metafile, entry, apart)
  if (folded.length === 0) return []
  const dir = dirname(main)
  const relative = (chunk) => `./${basename(chunk)}`
  const exports = (chunk) => outputs[chunk].exports
  // The entry's own exports as they are; every folded chunk's under names of its own.
  const contents = [
    `export { ${exports(main).join(', ')} } from ${JSON.stringify(relative(main))}`,
    ...folded.map((chunk, i) =>
      exports(chunk).length === 0
        ? `import ${JSON.stringify(relative(chunk))}`
        : `export { ${exports(chunk)
            .map((name) => `${name} as ${asName(i, name)}`)
            .join(', ')} } from ${JSON.stringify(relative(chunk))}`,
    ),
  ].join('\n')
  const inline = new Set([main, ...folded].map((chunk) => resolve(chunk)))
  const result = await build({
    stdin: { contents, resolveDir: resolve(dir), sourcefile: 'start.js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    write: false,
    minifySyntax: true,
    minifyWhitespace: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'fold-start-chunks',
        setup(b) {
          // Everything else (the chunks loaded on demand, those kept apart, packages) stays an import, as written.
          b.onResolve({ filter: /.*/ }, ({ path, resolveDir }) => {
            const file = resolve(resolveDir, path)
            return inline.has(file) ? { path: file } : { path, external: true }
          })
        },
      },
    ],
  })
  const code = result.outputFiles[0].text
  const hashbang = /^#!.*\n/.exec(readFileSync(main, 'utf8'))?.[0] ?? ''
  writeFileSync(main, hashbang + code)
  folded.forEach((chunk, i) => {
    const names = exports(chunk).map((name) => `${asName(i, name)} as ${name}`)
    writeFileSync(chunk, `export { ${names.join(', ')} } from ${JSON.stringify(relative(main))};\n`)
  })
  return folded
}
