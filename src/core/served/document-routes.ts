import { Hono } from '../http/hono-app.js'

/**
 * GET /openapi.json: the control plane's OpenAPI 3.1 document (admin-openapi.yaml), for clients in
 * any language. Loaded on the first request: it is a quarter of the browser bundle's weight otherwise.
 */
export const documentRoutes = (document: () => Promise<Record<string, any>>): Hono =>
  new Hono().get('/openapi.json', async (c) => c.json(await document()))
