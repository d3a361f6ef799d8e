// Bundles src/bin.ts with esbuild: one ESM entry, its code in chunks loaded on demand.
//   node scripts/bundle.mjs dist                     dist/bin.js for `npm start` and the package bin;
//                                                    faker, yaml and Ajv stay in node_modules
//   node scripts/bundle.mjs dist/bundle --self-contained   everything inside: the image has no node_modules
// Plain JavaScript, so that it runs on every Node the package supports, before anything is compiled.
import { rmSync } from 'node:fs'
import { build } from 'esbuild'
import { compileEagerly, startChunks } from './eager-compile.mjs'

const [outdir = 'dist', mode] = process.argv.slice(2)
const selfContained = mode === '--self-contained'
rmSync(selfContained ? outdir : `${outdir}/chunks`, { recursive: true, force: true })
// Node's built-ins as CommonJS: an ESM import of one builds its namespace, which reads every export,
// lazy getters included (node:util's and node:fs's load 30-odd internal modules each).
const builtinsAsCommonJs = {
  name: 'builtins-as-commonjs',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, ({ path }) => ({ path, namespace: 'builtin' }))
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, ({ path }) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(path)})`,
    }))
  },
}

const { metafile } = await build({
  entryPoints: ['src/bin.ts'],
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // Loaded only by --faker, --spec, --fixtures or --faults: never on a default start.
  external: selfContained ? [] : ['@faker-js/faker', 'yaml', 'ajv'],
  minifySyntax: true,
  minifyWhitespace: true,
  logLevel: 'warning',
  metafile: true,
  plugins: [builtinsAsCommonJs],
  // The CommonJS dependencies (yaml, Ajv) require() Node built-ins.
  banner: {
    js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);",
  },
})

// A cached start then compiles none of their code (scripts/eager-compile.mjs).
for (const chunk of startChunks(metafile, 'src/node/main.ts')) compileEagerly(chunk)
