import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { MockClient } from '../../../client/mock-client.js'
import { adminTokenVariable, CliUsageError, clientOf, fail, type Output, parseWords } from '../mock-admin.js'

/** `pact`'s help text. */
export const pactUsage = (): string =>
  [
    'Usage: petstore-mock pact URL --consumer NAME [options]',
    '',
    "Writes the distinct interactions of a session of the mock at URL as a Pact V4 file: what the consumer's",
    "suite relied on, with provider states from the mock's own state, for the provider team to verify.",
    '',
    'Options:',
    '  --consumer NAME  The consumer (your application). Required',
    "  --provider NAME  The provider. Default: the API's title in openapi.yaml (Pet Store)",
    '  --session NAME   The session (X-Mock-Session). Default: the default one',
    '  --out FILE       Where to write; - for stdout. Default: pacts/<consumer>-<provider>.json',
    `  --token T        The admin token, when the mock runs with one. Env ${adminTokenVariable}`,
    '  -h, --help       Show this help',
    '',
    'Exit code: 0 written, 2 bad usage or the mock cannot be reached.',
    '',
  ].join('\n')

/** `petstore-mock pact …`: the exit code (0 written, 2 bad usage or unreachable). */
export const pactCommand = async (
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  out: Output = process.stdout,
  err: Output = process.stderr,
): Promise<number> => {
  let client: MockClient
  let consumer: string
  let provider: string | undefined
  let file: string | undefined
  try {
    const { values, positionals } = parseWords(argv, {
      consumer: { type: 'string' },
      provider: { type: 'string' },
      session: { type: 'string' },
      out: { type: 'string' },
      token: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    } as const)
    if (values.help) return (out.write(pactUsage()), 0)
    if (values.consumer === undefined || values.consumer === '') throw new CliUsageError('--consumer NAME is required')
    consumer = values.consumer
    provider = values.provider
    file = values.out
    client = clientOf('pact', positionals, values, env, err)
  } catch (error) {
    return fail('pact', pactUsage, error, err)
  }
  let pact
  try {
    pact = await client.pact({ consumer, ...(provider !== undefined && { provider }) })
  } catch (error) {
    return fail('pact', pactUsage, error, err)
  }
  const text = `${JSON.stringify(pact, null, 2)}\n`
  if (file === '-') return (out.write(text), 0)
  const path = file ?? `pacts/${pact.consumer.name}-${pact.provider.name}.json`
  try {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  } catch (error) {
    err.write(`petstore-mock pact: cannot write ${path}: ${(error as Error).message}\n`)
    return 2
  }
  const leftOut = pact.metadata['petstore-mock'].interactionsLeftOut
  err.write(
    `petstore-mock pact: wrote ${pact.interactions.length} interactions between ${pact.consumer.name} and ${pact.provider.name} to ${path}${
      leftOut > 0 ? ` (${leftOut} requests of further interactions left out: see docs/ci.md)` : ''
    }\n`,
  )
  return 0
}
