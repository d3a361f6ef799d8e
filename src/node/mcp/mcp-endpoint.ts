import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import * as types from '@modelcontextprotocol/sdk/types.js'
import { adminDocument } from '../../generated/admin-document.js'
import { specDocument } from '../../generated/contract.js'
import type { McpEndpoint } from '../../core/admin/mcp-seam.js'
import type { McpHost } from './mcp-host.js'
import { markViaMcp } from '../../core/http/request/via-mcp.js'
import { bearerToken } from '../../core/http/request/authorization.js'
import { createMcpServer } from './mcp-server.js'
import { buildTools } from './tool-runner.js'

/**
 * `/__admin/mcp`: Streamable HTTP, stateless (no Mcp-Session-Id: each POST is answered on its own, as
 * JSON), with the SDK's own transport for web `Request`/`Response` (the app's). Each request gets a
 * server for its caller: the tools its token may use, calling the same app in-process, each call
 * through the admin guard again and marked as MCP for the audit log.
 */
export const mcpEndpoint = (host: McpHost): McpEndpoint => {
  const tools = buildTools(adminDocument, specDocument)
  const sdk = { Server, types }
  return async (request, token) => {
    // Stateless: no stream of the server's own to open (GET), no session to end (DELETE).
    if (request.method !== 'POST') {
      const message = `${request.method} /__admin/mcp: this MCP server is stateless; send each JSON-RPC message by POST.`
      return Response.json(
        { code: 'method_not_allowed', message, status: 405 },
        { status: 405, headers: { Allow: 'POST' } },
      )
    }
    const origin = new URL(request.url).origin
    const backend = {
      baseUrl: origin,
      adminToken: bearerToken(request.headers.get('Authorization') ?? undefined),
      fetch: (url: string, init: RequestInit) => host.fetch(markViaMcp(new Request(url, init))),
      caller: { token, apiKeyFor: host.apiKeyFor },
    }
    const server = createMcpServer(sdk, { tools, adminDocument }, backend)
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    await server.connect(transport)
    try {
      return await transport.handleRequest(request)
    } finally {
      await server.close()
    }
  }
}
