// Bundles src/bin.ts with esbuild: one ESM entry, its code in chunks loaded on demand.
//   node scripts/bundle.mjs dist                     dist/bin.js for `npm start` and the package bin;
//                                                    faker, yaml, js-yaml and Ajv stay in node_modules
//   node scripts/bundle.mjs dist/bundle --self-contained   everything inside: the image has no node_modules
// Plain JavaScript, so that it runs on every Node the package supports, before anything is compiled.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { build } from 'esbuild'
import { compileEagerly, startChunks } from './eager-compile.mjs'
import { mergeStartChunks } from './merge-start-chunks.mjs'
import { embeddedRoutersPlugin, embeddedRoutersSource } from './prepare-routes.mjs'
import { builtinsByExport } from './builtins-by-export.mjs'

const [outdir = 'dist', mode] = process.argv.slice(2)
const selfContained = mode === '--self-contained'
rmSync(selfContained ? outdir : `${outdir}/chunks`, { recursive: true, force: true })
// hono's router for the default command line's routes, built once here (scripts/prepare-routes.mjs).
mkdirSync(outdir, { recursive: true })
const embeddedRouters = await embeddedRoutersSource([builtinsByExport], `${outdir}/.prepare-routes.mjs`)

const options = {
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // Loaded only by --faker, --spec, --fixtures, --faults or --store redis://…: never on a default start;
  // prom-client by the first scrape of /__admin/metrics, OpenTelemetry when OTEL_* variables ask, the MCP
  // SDK (an optional peer) by the first /__admin/mcp request or `petstore-mock mcp`.
  external: selfContained
    ? []
    : [
        '@faker-js/faker',
        'yaml',
        'js-yaml',
        'ajv',
        'ioredis',
        'prom-client',
        '@opentelemetry/*',
        '@modelcontextprotocol/*',
      ],
  minifySyntax: true,
  minifyWhitespace: true,
  logLevel: 'warning',
  metafile: true,
  plugins: [builtinsByExport, embeddedRoutersPlugin(embeddedRouters)],
}
const { metafile } = await build({
  ...options,
  entryPoints: [{ in: 'src/bin.ts', out: 'bin' }],
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
})
// The YAML reader's worker thread, chunks/worker.js beside the chunk that starts it
// (src/node/yaml/off-thread.ts: new URL('./worker.js', import.meta.url); checked below), is built
// apart, in one file: a Worker has a module map of its own, so the code it shares with the start
// would otherwise stay in chunks of their own, which every start loads (merge-start-chunks.mjs).
const worker = await build({
  ...options,
  entryPoints: [{ in: 'src/node/yaml/worker.ts', out: 'chunks/worker' }],
  plugins: [builtinsByExport],
})
Object.assign(metafile.outputs, worker.metafile.outputs)

// A start loads one chunk besides bin.js, not 16 (scripts/merge-start-chunks.mjs).
await mergeStartChunks(metafile, 'src/node/main.ts')

// The CommonJS dependencies bundled in (yaml, Ajv: --self-contained) require() Node built-ins: the
// chunks that mention require get one (esbuild's __require shim reads it from its own chunk). Not the
// others: making one costs every start a module object and import.meta. And whatever chunk esbuild
// puts the YAML worker's starter in must find the worker beside it.
const requireLine = "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);\n"
for (const chunk of Object.keys(metafile.outputs)) {
  const code = readFileSync(chunk, 'utf8')
  const hashbang = /^#!.*\n/.exec(code)?.[0] ?? ''
  if (/\brequire\b/.test(code)) writeFileSync(chunk, hashbang + requireLine + code.slice(hashbang.length))
  const startsWorker = 'src/node/yaml/off-thread.ts' in metafile.outputs[chunk].inputs
  if (startsWorker && dirname(chunk) !== `${outdir}/chunks`)
    throw new Error(`${chunk} starts chunks/worker.js, not beside it`)
}

// What a start runs, compiled when the compile cache is made (scripts/eager-compile.mjs).
for (const chunk of startChunks(metafile, 'src/node/main.ts')) compileEagerly(chunk)
