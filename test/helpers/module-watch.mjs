// `node --import ./module-watch.mjs dist/bin.js …`: says on stderr, once per package, when
// prom-client or an @opentelemetry package is first loaded (module.registerHooks sees both import
// and require), so that a test can tell what a start loads. With MODULE_WATCH_HIDE_OTEL=1 the
// @opentelemetry packages cannot be found, as on an install without optional dependencies.
import { registerHooks } from 'node:module'

const seen = new Set()
const hide = process.env.MODULE_WATCH_HIDE_OTEL === '1'

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (hide && specifier.startsWith('@opentelemetry/')) {
      const error = new Error(`Cannot find package '${specifier}' imported from ${context.parentURL}`)
      error.code = 'ERR_MODULE_NOT_FOUND'
      throw error
    }
    const result = nextResolve(specifier, context)
    const name = /\/node_modules\/(prom-client|@opentelemetry\/[^/]+)\//.exec(result.url)?.[1]
    if (name && !seen.has(name)) {
      seen.add(name)
      process.stderr.write(`module-watch: loaded ${name}\n`)
    }
    return result
  },
})
