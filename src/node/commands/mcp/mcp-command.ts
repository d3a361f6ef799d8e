import { isSessionName } from '../../../core/http/request/session-name.js'
import { Environment } from '../../config/environment.js'
import { adminTokenVariable, CliUsageError, fail, type Output, parseWords } from '../mock-admin.js'
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
    const url = values.url
    if (url === undefined) throw new CliUsageError('--url is required')
    if (!/^https?:\/\/[^/]/.test(url)) throw new CliUsageError(`--url must be an absolute http(s) URL (got "${url}")`)
    if (values.session !== undefined && !isSessionName(values.session)) {
      throw new CliUsageError(`--session must be 1 to 64 characters of A-Z a-z 0-9 . _ - (got "${values.session}")`)
    }
    let token = values.token
    if (token === undefined) {
      const environment = new Environment(env)
      token = environment.read(adminTokenVariable)?.value
      for (const note of environment.notes) err.write(`${note}\n`)
    }
    options = { url, token: token === '' ? undefined : token, session: values.session }
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
