import type { McpEndpoint } from '../../core/admin/mcp-seam.js'
import type { McpHost } from './mcp-host.js'

/** Whether an import failed because the optional MCP SDK is not installed. */
export const missingSdk = (error: unknown): boolean =>
  (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
  /@modelcontextprotocol\/sdk/.test(String((error as Error).message))

/** What the endpoint answers when the SDK is not installed: an `Error` body saying how to add it. */
export const sdkMissingMessage =
  'The MCP server needs the optional package @modelcontextprotocol/sdk: npm install @modelcontextprotocol/sdk (beside petstore-mock).'

/**
 * The Node host's `/__admin/mcp`: the MCP server (mcp-endpoint.ts) and the SDK, an optional
 * dependency, loaded by import() on the first request only, so that a start that never speaks MCP
 * loads none of it (as OpenTelemetry, observe/observe-host.ts).
 */
export const lazyMcpEndpoint = (host: McpHost): McpEndpoint => {
  let loaded: Promise<McpEndpoint> | undefined
  return async (request, token) => {
    loaded ??= import('./mcp-endpoint.js').then(
      ({ mcpEndpoint }) => mcpEndpoint(host),
      (error: unknown) => {
        if (!missingSdk(error)) throw error
        return async () =>
          Response.json({ code: 'service_unavailable', message: sdkMissingMessage, status: 503 }, { status: 503 })
      },
    )
    return (await loaded)(request, token)
  }
}
