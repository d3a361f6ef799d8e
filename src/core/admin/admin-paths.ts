/**
 * The routes of the lazily loaded control plane (admin-host.ts), in the order it registers them:
 * the app routes each one at start to a handler that loads it on first use, so that what reads
 * the app's routes (CORS, 405 answers and their Allow header, the admin guard) knows them before.
 * GET /__admin (the panel's redirect) and the health probes stay in the app. A test fails when
 * this differs from what admin-host.ts registers.
 */
export const adminPaths: readonly (readonly [method: string, path: string])[] = [
  ['GET', '/__admin/health'],
  ['GET', '/__admin/'],
  ['GET', '/__admin/index.html'],
  ['GET', '/__admin/panel.js'],
  ['GET', '/__admin/panel.css'],
  ['GET', '/__admin/favicon.svg'],
  ['GET', '/__admin/openapi.json'],
  ['POST', '/__admin/faults'],
  ['PUT', '/__admin/faults/:rule'],
  ['GET', '/__admin/faults'],
  ['DELETE', '/__admin/faults'],
  ['DELETE', '/__admin/faults/:rule'],
  ['PUT', '/__admin/timelines/:name'],
  ['GET', '/__admin/timelines'],
  ['GET', '/__admin/timelines/:name'],
  ['DELETE', '/__admin/timelines/:name'],
  ['POST', '/__admin/reset'],
  ['GET', '/__admin/sessions'],
  ['POST', '/__admin/sessions/:name'],
  ['DELETE', '/__admin/sessions/:name'],
  ['GET', '/__admin/state'],
  ['PUT', '/__admin/state'],
  ['POST', '/__admin/seed'],
  ['GET', '/__admin/requests'],
  ['DELETE', '/__admin/requests'],
  ['GET', '/__admin/clock'],
  ['PUT', '/__admin/clock'],
  ['DELETE', '/__admin/clock'],
  ['GET', '/__admin/rate-limit'],
  ['PUT', '/__admin/rate-limit'],
  ['DELETE', '/__admin/rate-limit'],
  ['GET', '/__admin/deprecations'],
  ['GET', '/__admin/requests/stream'],
  ['GET', '/__admin/requests.har'],
  ['GET', '/__admin/snapshot'],
  ['PUT', '/__admin/snapshot'],
  ['GET', '/__admin/coverage'],
  ['DELETE', '/__admin/coverage'],
  ['GET', '/__admin/pact'],
  ['POST', '/__admin/provider-states'],
]

/** GET /__admin/metrics, routed by admin-host.ts after the others when the host serves metrics. */
export const metricsPath = ['GET', '/__admin/metrics'] as const

/** Whether a path belongs to the control plane (what hono's `/__admin/*` matches). */
export const isAdminPath = (path: string): boolean => path === '/__admin' || path.startsWith('/__admin/')
