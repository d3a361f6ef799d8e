// hono builds its router when it routes its first request: 2 ms of every start. For the default
// command line (request log on or off), scripts/bundle.mjs builds it once here, with the app's own
// code, and embeds the result in place of src/node/server/embedded-routers.ts; a start then checks that
// its routes are exactly those before using it (src/node/server/prepared-router.ts). Plain JavaScript.
import { rmSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const entry = `
import { parseCommandLine } from './src/node/cli/cli.ts'
import { serverApp } from './src/node/main.ts'
import { embeddedRoutersModule, prepareRoutes } from './src/node/server/prepared-router.ts'

const prepared = []
for (const log of ['silent', 'json']) {
  const command = parseCommandLine(['--log', log], {})
  if (command.run !== 'serve') throw new Error('the default command line does not serve')
  const routes = prepareRoutes((await serverApp(command.config)).app)
  if (routes) prepared.push(routes)
}
export default embeddedRoutersModule(prepared)
`

/** The source of src/node/server/embedded-routers.ts for the bundle; `scratch` is a file it may write and removes. */
export const embeddedRoutersSource = async (plugins, scratch) => {
  const { outputFiles } = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts', sourcefile: 'prepare-routes.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    write: false,
    external: ['@faker-js/faker', 'yaml', 'ajv', 'prom-client', '@opentelemetry/*'],
    logLevel: 'warning',
    plugins,
  })
  writeFileSync(scratch, outputFiles[0].text)
  try {
    return (await import(pathToFileURL(scratch).href)).default
  } finally {
    rmSync(scratch)
  }
}

/** The module the plugin below replaces, as esbuild's onLoad filters see its path. */
const embeddedRoutersFile = /[\\/]src[\\/]node[\\/]server[\\/]embedded-routers\.ts$/

/**
 * An esbuild plugin that replaces src/node/server/embedded-routers.ts with `source`; the build fails
 * when no module has that path (moved or renamed: the bundle would route as hono does, silently).
 */
export const embeddedRoutersPlugin = (source) => ({
  name: 'embedded-routers',
  setup(build) {
    let replaced = false
    build.onLoad({ filter: embeddedRoutersFile }, () => ((replaced = true), { contents: source, loader: 'js' }))
    build.onEnd(() => {
      if (!replaced) throw new Error('src/node/server/embedded-routers.ts was not bundled: no router embedded')
    })
  },
})
