import { Hono } from '../http/hono-app.js'
import type { Spec } from '../spec/spec.js'
import { chain, type Stage } from '../http/stage.js'
import { noScriptHeaders } from '../http/no-script.js'
import { pathPrefixOf } from '../http/request/session-name.js'
import { prefixedJson, prefixedYaml } from './prefixed-servers.js'

/**
 * Serves the contract without authentication, so clients can be generated
 * from a running mock; `cors` (none when CORS is off) runs first.
 */
export const docsRoutes = (spec: Spec, cors: Stage | undefined): Hono => {
  const json = JSON.stringify(spec.document, null, 2)
  return new Hono()
    .get(
      '/openapi.yaml',
      chain([cors], async (c) => {
        const prefix = pathPrefixOf(c)
        const whole = spec.loadText ? await spec.loadText() : spec.text
        const text = prefix === '' ? whole : prefixedYaml(whole, prefix, spec.basePath)
        return c.body(text, 200, { ...noScriptHeaders, 'Content-Type': 'application/yaml; charset=utf-8' })
      }),
    )
    .get(
      '/openapi.json',
      chain([cors], (c) => {
        const prefix = pathPrefixOf(c)
        const text = prefix === '' ? json : prefixedJson(spec.document as object, prefix, spec.basePath)
        return c.body(text, 200, { ...noScriptHeaders, 'Content-Type': 'application/json' })
      }),
    )
}
