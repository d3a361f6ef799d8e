import { Hono } from 'hono'
import type { Spec } from '../spec/spec.js'
import { chain, type Stage } from '../http/stage.js'

/**
 * Serves the contract without authentication, so clients can be generated
 * from a running mock; `cors` (none when CORS is off) runs first.
 */
export const docsRoutes = (spec: Spec, cors: Stage | undefined): Hono => {
  const json = JSON.stringify(spec.document, null, 2)
  return new Hono()
    .get(
      '/openapi.yaml',
      chain([cors], (c) => c.body(spec.text, 200, { 'Content-Type': 'application/yaml; charset=utf-8' })),
    )
    .get(
      '/openapi.json',
      chain([cors], (c) => c.body(json, 200, { 'Content-Type': 'application/json' })),
    )
}
