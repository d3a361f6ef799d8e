import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { Output } from '../mock-admin.js'

/** What the bridge relays to. */
export interface BridgeOptions {
  url: string
  token: string | undefined
  /** Filled in as `session` of a tool call that names none. */
  session: string | undefined
  err: Output
}

type Message = JSONRPCMessage & { id?: string | number; method?: string; params?: any; result?: any }

/**
 * The stdio bridge: the SDK's StdioServerTransport on this process' stdin and stdout, each message
 * relayed as it is to the mock's /__admin/mcp through the SDK's Streamable HTTP client transport (the
 * tools, their scopes and the audit are the mock's own). With --session, a tool call without
 * `session` gets it, and tools/list shows `session` as optional.
 */
export const runStdioBridge = async ({ url, token, session, err }: BridgeOptions): Promise<void> => {
  const endpoint = new URL('/__admin/mcp', url.endsWith('/') ? url : `${url}/`)
  // A mock behind a path prefix keeps it: URL's path, then __admin/mcp.
  endpoint.pathname = `${new URL(url).pathname.replace(/\/+$/, '')}/__admin/mcp`
  const upstream = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } },
  })
  const local = new StdioServerTransport()
  const pending = new Map<string | number, string>()

  const outbound = (message: Message): Message => {
    if (message.method === 'tools/call' && session !== undefined) {
      const args = (message.params?.arguments ?? {}) as Record<string, unknown>
      if (args['session'] === undefined) {
        return { ...message, params: { ...message.params, arguments: { ...args, session } } } as Message
      }
    }
    return message
  }
  const inbound = (message: Message): Message => {
    const method = message.id === undefined ? undefined : pending.get(message.id)
    if (message.id !== undefined) pending.delete(message.id)
    if (method === 'initialize' && message.result?.protocolVersion) {
      upstream.setProtocolVersion(message.result.protocolVersion)
    }
    if (method === 'tools/list' && session !== undefined && Array.isArray(message.result?.tools)) {
      const tools = message.result.tools.map((tool: any) => ({
        ...tool,
        inputSchema: {
          ...tool.inputSchema,
          ...(Array.isArray(tool.inputSchema?.required) && {
            required: tool.inputSchema.required.filter((name: string) => name !== 'session'),
          }),
        },
      }))
      return { ...message, result: { ...message.result, tools } } as Message
    }
    return message
  }

  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve
    process.stdin.once('end', () => void local.close())
  })
  local.onmessage = (raw) => {
    const message = raw as Message
    if (message.id !== undefined && message.method !== undefined) pending.set(message.id, message.method)
    upstream.send(outbound(message)).catch((error: unknown) => {
      // The mock did not answer (down, a refused token): the client is told on the request itself.
      err.write(`petstore-mock mcp: ${(error as Error).message}\n`)
      if (message.id !== undefined && message.method !== undefined) {
        pending.delete(message.id)
        void local.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32000, message: `petstore-mock at ${endpoint.href}: ${(error as Error).message}` },
        })
      }
    })
  }
  upstream.onmessage = (message) => void local.send(inbound(message as Message))
  upstream.onerror = (error) => err.write(`petstore-mock mcp: ${error.message}\n`)
  await upstream.start()
  await local.start()
  await closed
  await upstream.close()
}
