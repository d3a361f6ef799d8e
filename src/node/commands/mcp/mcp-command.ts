import { adminTokenVariable, CliUsageError, fail, mockTarget, type Output, parseWords } from '../mock-admin.js'
import { missingSdk, sdkMissingMessage } from '../../mcp/lazy-endpoint.js'

/** `mcp`'s help text. */
export const mcpUsage = (): string =>
  [
    'Usage: petstore-mock mcp --url URL [options]',
    '',
    'A stdio bridge to the MCP server of a running mock (its /__admin/mcp), for MCP clients that only',
    'start a command: JSON-RPC on stdin and stdout, relayed to URL over Streamable HTTP, with the admin token.',
    'Needs the optional package @modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk).',
    '',
    'Options:',
    '  --url URL        The mock, e.g. http://127.0.0.1:4010 (required)',
    `  --token T        The admin token, when the mock runs with one. Env ${adminTokenVariable}`,
    '  --session NAME   The session a tool works on when the call names none (tools then list session as optional)',
    '  -h, --help       Show this help',
    '',
    'Exit code: 0 when stdin ends, 2 bad usage or no SDK.',
    '',
  ].join('\n')

/** `petstore-mock mcp …`: relays stdio to the mock's /__admin/mcp until stdin ends. */
export const mcpCommand = async (
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  err: Output = process.stderr,
): Promise<number> => {
  let options: { url: string; token: string | undefined; session: string | undefined }
  try {
    const { values, positionals } = parseWords(argv, {
      url: { type: 'string' },
      token: { type: 'string' },
      session: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    })
    if (values.help) {
      process.stdout.write(mcpUsage())
      return 0
    }
    if (positionals.length > 0) throw new CliUsageError(`mcp takes no positional argument (got "${positionals[0]}")`)
    if (values.url === undefined) throw new CliUsageError('--url is required')
    const target = mockTarget(values.url, values, env, err, '--url')
    options = { url: target.url, token: target.adminToken, session: target.session }
  } catch (error) {
    return fail('mcp', mcpUsage, error, err)
  }
  let bridge: typeof import('./stdio-bridge.js')
  try {
    bridge = await import('./stdio-bridge.js')
  } catch (error) {
    if (!missingSdk(error)) throw error
    err.write(`petstore-mock mcp: ${sdkMissingMessage}\n`)
    return 2
  }
  await bridge.runStdioBridge({ ...options, err })
  return 0
}
