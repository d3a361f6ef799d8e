#!/usr/bin/env node
// V8 keeps the code it compiles on disk (in NODE_COMPILE_CACHE, or the OS temp directory) and later
// starts skip parsing and compiling it. Only modules loaded after this call are cached: hence the
// dynamic import, and this file stays tiny (node:module from process, not imported: the bundle's
// entry then needs none of esbuild's CommonJS helpers, one module fewer to load).
process.getBuiltinModule('node:module').enableCompileCache()
const { main } = await import('./node/main.js')

const code = await main(process.argv.slice(2), process.env)
if (code !== undefined) process.exitCode = code
