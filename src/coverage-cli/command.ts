import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { createMockClient, type MockClient } from '../client/mock-client.js'
import { coverageJunit, coverageMarkdown, coverageText } from '../core/coverage/coverage-format.js'
import { reaches, uncovered } from '../core/coverage/coverage-report.js'
import { isSessionName } from '../core/sessions/select-session.js'

/**
 * `petstore-mock coverage URL …` and `petstore-mock pact URL …`: read a
 * running mock's contract coverage (a CI gate) or its Pact file, through the
 * typed admin client. URL is the mock's address (as `createMockClient`'s
 * baseUrl), not the API's base path.
 */

/** Bad usage: exit code 2, with the message and the usage. */
export class CliUsageError extends Error {
  override name = 'CliUsageError'
}

/** Where a command writes. */
export interface Output {
  write(text: string): unknown
}

/** The environment variable that holds the admin token, as the server reads it. */
export const adminTokenVariable = 'ADMIN_TOKEN'

const formats = ['text', 'json', 'junit', 'markdown'] as const
type Format = (typeof formats)[number]

/** `coverage`'s help text. */
export const coverageUsage = (): string =>
  [
    'Usage: petstore-mock coverage URL [options]',
    '',
    'Reads the contract coverage of a session of the mock at URL (its address, e.g. http://127.0.0.1:4010):',
    'each documented response of openapi.yaml and how many requests got it, the statuses answered beyond',
    'the contract, and the classes of input sent. A CI gate: exits 1 when the documented coverage is below --min.',
    '',
    'Options:',
    '  --session NAME   The session (X-Mock-Session). Default: the default one',
    '  --min PERCENT    Fail (exit 1) below this coverage of documented responses, 0 to 100. Default: 0',
    '  --format F       text (a table), json (the report), junit (one test case per documented response),',
    '                   markdown (for $GITHUB_STEP_SUMMARY). Default: text',
    `  --token T        The admin token, when the mock runs with one. Env ${adminTokenVariable}`,
    '  -h, --help       Show this help',
    '',
    'Exit code: 0 coverage ≥ --min, 1 below (the uncovered responses are named on stderr), 2 bad usage or the',
    'mock cannot be reached.',
    '',
  ].join('\n')

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

const parse = <T extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: T) => {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new CliUsageError((error as Error).message)
  }
}

/** The client of the mock at the one positional URL. */
const clientOf = (
  command: string,
  positionals: string[],
  values: { session?: string | undefined; token?: string | undefined },
  env: NodeJS.ProcessEnv,
): MockClient => {
  if (positionals.length !== 1) throw new CliUsageError(`${command} takes one URL (got ${positionals.length})`)
  const url = positionals[0]!
  if (!/^https?:\/\/[^/]/.test(url)) throw new CliUsageError(`URL must be an absolute http(s) URL (got "${url}")`)
  const session = values.session
  if (session !== undefined && !isSessionName(session)) {
    throw new CliUsageError(`--session must be 1 to 64 characters of A-Z a-z 0-9 . _ - (got "${session}")`)
  }
  const adminToken = values.token ?? env[adminTokenVariable]
  try {
    return createMockClient({
      baseUrl: url,
      ...(adminToken !== undefined && adminToken !== '' && { adminToken }),
      ...(session !== undefined && { session }),
    })
  } catch (error) {
    throw new CliUsageError((error as Error).message)
  }
}

const fail = (command: string, usage: () => string, error: unknown, err: Output): number => {
  const more = error instanceof CliUsageError ? `\n\n${usage()}` : '\n'
  err.write(`petstore-mock ${command}: ${(error as Error).message}${more}`)
  return 2
}

/** `petstore-mock coverage …`: the exit code (0 at or above --min, 1 below, 2 bad usage or unreachable). */
export const coverageCommand = async (
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  out: Output = process.stdout,
  err: Output = process.stderr,
): Promise<number> => {
  let client: MockClient
  let min: number
  let format: Format
  try {
    const { values, positionals } = parse(argv, {
      session: { type: 'string' },
      min: { type: 'string' },
      format: { type: 'string' },
      token: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    } as const)
    if (values.help) return (out.write(coverageUsage()), 0)
    const minText = values.min ?? '0'
    min = Number(minText)
    if (!/^\d+(\.\d+)?$/.test(minText) || min > 100) {
      throw new CliUsageError(`--min must be a percentage from 0 to 100 (got "${minText}")`)
    }
    const formatText = values.format ?? 'text'
    if (!formats.includes(formatText as Format)) {
      throw new CliUsageError(`--format must be one of ${formats.join(', ')} (got "${formatText}")`)
    }
    format = formatText as Format
    client = clientOf('coverage', positionals, values, env)
  } catch (error) {
    return fail('coverage', coverageUsage, error, err)
  }
  let report
  try {
    report = await client.coverage()
  } catch (error) {
    return fail('coverage', coverageUsage, error, err)
  }
  out.write(
    format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : format === 'junit'
        ? coverageJunit(report)
        : format === 'markdown'
          ? coverageMarkdown(report)
          : coverageText(report, client.baseUrl),
  )
  if (reaches(report, min)) return 0
  err.write(
    `petstore-mock coverage: ${report.percent} % of documented responses is below --min ${min}; not covered: ${uncovered(report).join(', ')}\n`,
  )
  return 1
}

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
    const { values, positionals } = parse(argv, {
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
    client = clientOf('pact', positionals, values, env)
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
