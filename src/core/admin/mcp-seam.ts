import type { AdminToken } from '../access/admin-scopes.js'

/** The admin token a `/__admin/mcp` request authenticated with (its scope, not its secret); undefined: the control plane is open. */
export type McpToken = Omit<AdminToken, 'secret'> | undefined

/**
 * The MCP endpoint a host serves at `/__admin/mcp` (the Node host's: src/node/mcp/), behind the admin
 * guard, told the caller's token. The core knows no MCP library: the host hands in this function,
 * loaded on first use, and it calls the app back as any client would (in-process).
 */
export type McpEndpoint = (request: Request, token: McpToken) => Promise<Response>

/**
 * The MCP endpoint's routes (Streamable HTTP's three methods), registered by admin-host.ts when the host
 * serves one; here, not in admin-paths.ts, which the app loads at start (the app's `/__admin/*` route
 * already hands them to the admin host).
 */
export const mcpPaths: readonly (readonly [method: string, path: string])[] = [
  ['POST', '/__admin/mcp'],
  ['GET', '/__admin/mcp'],
  ['DELETE', '/__admin/mcp'],
]
