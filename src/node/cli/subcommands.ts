/** What a subcommand does with the words after its name: its exit code. */
type Subcommand = (argv: readonly string[], env: NodeJS.ProcessEnv) => Promise<number>

// Each loaded only when named: a start that serves never loads them.
const subcommands: Readonly<Record<string, () => Promise<Subcommand>>> = {
  verify: async () => (await import('../commands/verify/command.js')).verifyCommand,
  coverage: async () => (await import('../commands/coverage/coverage-command.js')).coverageCommand,
  pact: async () => (await import('../commands/pact/pact-command.js')).pactCommand,
  mcp: async () => (await import('../commands/mcp/mcp-command.js')).mcpCommand,
}

/**
 * The subcommand the first word names (`petstore-mock verify URL …`), to run on the words after
 * it; undefined when the command line is the server's own.
 */
export const subcommandOf = (argv: readonly string[]): ((env: NodeJS.ProcessEnv) => Promise<number>) | undefined => {
  const [name, ...rest] = argv
  const load = name !== undefined && Object.hasOwn(subcommands, name) ? subcommands[name] : undefined
  return load && (async (env) => (await load())(rest, env))
}
