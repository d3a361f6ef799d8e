import { Hono } from 'hono'

/** GET /openapi.json: the control plane's OpenAPI 3.1 document (admin-openapi.yaml), for clients in any language. */
export const documentRoutes = (document: Record<string, any>): Hono =>
  new Hono().get('/openapi.json', (c) => c.json(document))
