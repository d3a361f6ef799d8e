import type { Handler } from 'hono'
import { pathPrefixOf } from '../http/request/session-name.js'

/**
 * `/__admin` without the slash: to the panel's page. Apart from the panel's routes
 * (panel-routes.ts), which the app loads on the first /__admin request (admin/admin-host.ts).
 */
export const panelRedirect: Handler = (c) => c.redirect(`${pathPrefixOf(c)}/__admin/`, 308)
