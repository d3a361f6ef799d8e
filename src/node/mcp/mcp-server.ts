import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type * as Types from '@modelcontextprotocol/sdk/types.js'
import { specText } from '../../generated/contract-text.js'
import { packageVersion } from '../../generated/contract.js'
import { promptSpecs } from './prompts.js'
import { runTool, toolsFor, type Tool, type ToolBackend } from './tool-runner.js'

/** The parts of the SDK the server is made of, loaded by import() on first use (mcp-endpoint.ts). */
export interface Sdk {
  Server: typeof Server
  types: typeof Types
}

/** What the server serves, beside its tools: the admin API document (resources). */
export interface McpServerParts {
  tools: readonly Tool[]
  adminDocument: Record<string, unknown>
}

const contractUri = 'petstore-mock://openapi.yaml'
const adminUri = 'petstore-mock://admin-openapi.json'
const sessionUri = /^petstore-mock:\/\/sessions\/([^/]+)\/(journal|coverage)$/

/** The instructions an agent is given at initialize. */
const instructions =
  'petstore-mock: a stateful, contract-exact mock of the Pet Store API. Work in a session of your own (session_create), ' +
  'shape answers with rule_set (the fault rule language), call listPets/createPet/getPet to see what an app gets, ' +
  'read journal_read and explain_request to see why, and bundle_export to keep a reproduction.'

/**
 * One MCP server over the mock for one caller (its token's tools, its backend): the tools, the
 * resources (the contract, the admin document, each session's journal and coverage) and the prompts.
 */
export const createMcpServer = (sdk: Sdk, parts: McpServerParts, backend: ToolBackend): Server => {
  const { types } = sdk
  const server = new sdk.Server(
    { name: 'petstore-mock', version: packageVersion },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions },
  )
  const visible = toolsFor(parts.tools, backend.caller.token)
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({
    tools: visible.map((tool) => ({
      name: tool.spec.name,
      description: tool.spec.description,
      inputSchema: tool.inputSchema as Types.Tool['inputSchema'],
      annotations: { readOnlyHint: !tool.writes, openWorldHint: false },
    })),
  }))
  server.setRequestHandler(types.CallToolRequestSchema, async (request) => {
    const tool = visible.find((t) => t.spec.name === request.params.name)
    if (tool === undefined) {
      const hidden = parts.tools.some((t) => t.spec.name === request.params.name)
      throw new types.McpError(
        types.ErrorCode.InvalidParams,
        hidden
          ? `Tool ${request.params.name} changes the mock: the admin token is read-only.`
          : `Unknown tool ${request.params.name}.`,
      )
    }
    return (await runTool(tool, request.params.arguments, backend)) as Types.CallToolResult
  })
  const read = async (session: string, path: string): Promise<string> => {
    const { sendAdmin } = await import('../../client/admin-http.js')
    try {
      const response = await sendAdmin(
        { baseUrl: backend.baseUrl, adminToken: backend.adminToken, session, fetch: backend.fetch },
        { method: 'GET', path },
      )
      return await response.text()
    } catch (error) {
      throw new types.McpError(types.ErrorCode.InvalidParams, (error as Error).message)
    }
  }
  server.setRequestHandler(types.ListResourcesRequestSchema, async () => {
    const listed = JSON.parse(await read('default', '/sessions')) as { sessions: { name: string }[] }
    return {
      resources: [
        { uri: contractUri, name: 'openapi.yaml', title: 'The Pet Store contract', mimeType: 'application/yaml' },
        {
          uri: adminUri,
          name: 'admin-openapi.json',
          title: "The mock's control plane (OpenAPI 3.1)",
          mimeType: 'application/json',
        },
        ...listed.sessions.flatMap(({ name }) => [
          { uri: `petstore-mock://sessions/${name}/journal`, name: `${name} journal`, mimeType: 'application/json' },
          { uri: `petstore-mock://sessions/${name}/coverage`, name: `${name} coverage`, mimeType: 'application/json' },
        ]),
      ],
    }
  })
  server.setRequestHandler(types.ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      { uriTemplate: 'petstore-mock://sessions/{session}/journal', name: 'journal', mimeType: 'application/json' },
      { uriTemplate: 'petstore-mock://sessions/{session}/coverage', name: 'coverage', mimeType: 'application/json' },
    ],
  }))
  server.setRequestHandler(types.ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params
    if (uri === contractUri) return { contents: [{ uri, mimeType: 'application/yaml', text: specText }] }
    if (uri === adminUri) {
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(parts.adminDocument) }] }
    }
    const match = sessionUri.exec(uri)
    if (!match) throw new types.McpError(types.ErrorCode.InvalidParams, `Unknown resource ${uri}.`)
    const session = decodeURIComponent(match[1]!)
    const text = await read(session, match[2] === 'journal' ? '/requests' : '/coverage')
    return { contents: [{ uri, mimeType: 'application/json', text }] }
  })
  server.setRequestHandler(types.ListPromptsRequestSchema, () => ({
    prompts: promptSpecs.map(({ name, description, arguments: args }) => ({ name, description, arguments: args })),
  }))
  server.setRequestHandler(types.GetPromptRequestSchema, (request) => {
    const prompt = promptSpecs.find((p) => p.name === request.params.name)
    if (!prompt) throw new types.McpError(types.ErrorCode.InvalidParams, `Unknown prompt ${request.params.name}.`)
    const args = request.params.arguments ?? {}
    const missing = prompt.arguments.find((a) => a.required && !args[a.name])
    if (missing) throw new types.McpError(types.ErrorCode.InvalidParams, `Prompt ${prompt.name} needs ${missing.name}.`)
    return {
      description: prompt.description,
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.text(args) } }],
    }
  })
  return server
}
