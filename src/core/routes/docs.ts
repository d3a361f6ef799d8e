import { Hono } from 'hono'
import type { Spec } from '../spec/spec.js'

/** Serves the contract without authentication, so clients can be generated from a running mock. */
export const docsRoutes = (spec: Spec): Hono => {
  const json = JSON.stringify(spec.document, null, 2)
  return new Hono()
    .get('/openapi.yaml', (c) => c.body(spec.text, 200, { 'Content-Type': 'application/yaml; charset=utf-8' }))
    .get('/openapi.json', (c) => c.body(json, 200, { 'Content-Type': 'application/json' }))
}
