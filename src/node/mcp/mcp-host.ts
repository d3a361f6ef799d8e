import { globMatches } from '../../core/tenants/session-glob.js'
import type { Tenant } from '../../core/tenants/tenant.js'

/** What the MCP server needs of the Node host: the app, called in-process, and the /v1 key to send. */
export interface McpHost {
  /** The app's own `fetch`: a tool's admin or /v1 request, through the same guard and stages as a socket's. */
  fetch(request: Request): Promise<Response>
  /** The /v1 key an operation tool sends when the agent gives none: one the app accepts for that session. */
  apiKeyFor(session: string): string
}

/**
 * The key the operation tools send by default: a key of the tenant owning the session, else the
 * first of --api-keys, else any well-formed token (with no keys configured every one passes).
 */
export const defaultApiKey =
  (apiKeys: readonly string[], tenants: readonly Tenant[] | undefined) =>
  (session: string): string =>
    tenants?.find((t) => t.sessions.some((glob) => globMatches(glob, session)))?.apiKeys[0] ??
    apiKeys[0] ??
    'petstore-mock-mcp'
