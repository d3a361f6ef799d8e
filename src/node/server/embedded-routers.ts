import type { PreparedRoutes } from './prepared-router.js'

/**
 * The routers of the default command line (with and without the request log), prepared when the
 * bundle is built: scripts/bundle.mjs replaces this module (scripts/prepare-routes.mjs). None here,
 * so that the library build and the tests route as hono does by itself.
 */
export const embeddedRouters: readonly PreparedRoutes[] = []
