#!/usr/bin/env node
// Runs on an older Node than the package's engines (>=22.12): the bundle reads every Node built-in
// through process.getBuiltinModule (Node 20.16+, 22.3+), so without it nothing else can load and the
// user gets one line instead of a stack trace; module.enableCompileCache (22.1+) only speeds starts up.
// Plain syntax up to the dynamic import: this file must parse on the oldest Node that may run it.
if (typeof process.getBuiltinModule !== 'function') {
  console.error(
    `petstore-mock needs Node.js 22.12 or later (this is Node.js ${process.versions.node}); ` +
      'or run the container: docker run --rm -p 4010:4010 petstore-mock',
  )
  process.exit(1)
}
// V8 keeps the code it compiles on disk (in NODE_COMPILE_CACHE, or the OS temp directory) and later
// starts skip parsing and compiling it. Only modules loaded after this call are cached: hence the
// dynamic import, and this file stays tiny (node:module from process, not imported: the bundle's
// entry then needs none of esbuild's CommonJS helpers, one module fewer to load).
process.getBuiltinModule('node:module').enableCompileCache?.()
const { main } = await import('./node/main.js')

const code = await main(process.argv.slice(2), process.env)
if (code !== undefined) process.exitCode = code
