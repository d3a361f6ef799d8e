import { parseArgs } from 'node:util'
import { baseUrlOf } from '../../../core/proxy/upstream-url.js'
import { bundledSpec } from '../../../core/spec/bundled-spec.js'
import type { Spec } from '../../../core/spec/spec.js'
import { Environment } from '../../config/environment.js'
import { NoAnswer } from './probe.js'
import { buildReport, formatReport, type VerifyReport } from './report.js'
import { RunContext } from './run-context.js'
import { categoryOf, runScenario } from './scenario.js'
import { probeSilences } from './silence-probes.js'

/** Bad usage of `verify`: exit code 2, with the message and the usage. */
export class VerifyUsageError extends Error {
  override name = 'VerifyUsageError'
}

/** What `petstore-mock verify` was asked. */
export interface VerifyOptions {
  url: string
  token: string
  spec?: string
  json: boolean
  writes: boolean
  timeoutMs: number
}

/** `verify`'s help text. */
export const verifyUsage = (): string =>
  [
    'Usage: petstore-mock verify URL [options]',
    '',
    'Checks a running deployment of the Pet Store against the contract: every operation, every documented',
    'status that can be provoked from outside, the bodies against the schemas and the promised headers;',
    "then observes how it reads the spec's silences and prints the mock's settings that reproduce them.",
    'URL is the base URL (ending with the base path, /v1; added when missing).',
    '',
    'Options:',
    '  --token T        The API key to send (Authorization: Bearer T). Env PETSTORE_MOCK_API_KEY. Required.',
    '  --spec PATH      The OpenAPI document to check against. Env PETSTORE_MOCK_SPEC. Default: the bundled openapi.yaml',
    '  --json           Print the report as JSON',
    '  --no-writes      Send reads only (no createPet); the report lists what was skipped',
    '  --timeout MS     Time each request may take, 1 to 120000. Env PETSTORE_MOCK_VERIFY_TIMEOUT. Default: 10000',
    '  -h, --help       Show this help',
    '',
    "The variables' former names without PETSTORE_MOCK_ are still read, with a note; the prefixed one wins.",
    'Exit code: 0 the deployment conforms, 1 it drifts, 2 bad usage or the URL cannot be reached.',
    '',
  ].join('\n')

const timeoutPattern = /^[1-9][0-9]*$/
const isTimeout = (text: string): boolean => timeoutPattern.test(text) && Number(text) <= 120_000

/**
 * Reads `verify`'s arguments (after the word `verify`) and the environment (PETSTORE_MOCK_…, or
 * the former names, with notes in `environment`).
 */
export const parseVerifyArgs = (
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  environment: Environment = new Environment(env),
): VerifyOptions | 'help' => {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        token: { type: 'string' },
        spec: { type: 'string' },
        json: { type: 'boolean' },
        'no-writes': { type: 'boolean' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    throw new VerifyUsageError((error as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help) return 'help'
  if (positionals.length !== 1) throw new VerifyUsageError(`verify takes one URL (got ${positionals.length})`)
  const url = positionals[0]!
  let parsedUrl: URL
  try {
    parsedUrl = new URL(url)
  } catch {
    throw new VerifyUsageError(`URL must be an absolute http(s) URL (got "${url}")`)
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') {
    throw new VerifyUsageError(`URL must be an absolute http(s) URL (got "${url}")`)
  }
  const token = values.token ?? environment.read('PETSTORE_MOCK_API_KEY')?.value
  if (token === undefined || token === '') {
    throw new VerifyUsageError('verify needs an API key: --token T or PETSTORE_MOCK_API_KEY')
  }
  let timeoutText = values.timeout
  if (timeoutText === undefined) {
    const variable = environment.read('PETSTORE_MOCK_VERIFY_TIMEOUT')
    // An unprefixed value that is no timeout is taken for another tool's, as the server's options do.
    if (variable?.legacy && !isTimeout(variable.value)) {
      environment.note(variable.name, `${variable.name} is ignored: not milliseconds from 1 to 120000`)
    } else timeoutText = variable?.value
  }
  timeoutText ??= '10000'
  if (!isTimeout(timeoutText)) {
    throw new VerifyUsageError(`--timeout must be milliseconds from 1 to 120000 (got "${timeoutText}")`)
  }
  const timeoutMs = Number(timeoutText)
  const spec = values.spec ?? environment.read('PETSTORE_MOCK_SPEC')?.value
  return {
    url,
    token,
    ...(spec !== undefined && { spec }),
    json: values.json === true,
    writes: values['no-writes'] !== true,
    timeoutMs,
  }
}

/** Runs the scenario and the silences' probes against the deployment; NoAnswer when it cannot be reached. */
export const verify = async (options: VerifyOptions, spec: Spec): Promise<VerifyReport> => {
  const baseUrl = baseUrlOf(options.url, spec.basePath)
  const ctx = new RunContext({
    spec,
    baseUrl,
    token: options.token,
    timeoutMs: options.timeoutMs,
    writes: options.writes,
  })
  const listed = await runScenario(ctx)
  const silences = await probeSilences(ctx, listed, categoryOf(listed))
  return buildReport({
    url: baseUrl,
    contract: `${options.spec ?? 'openapi.yaml (bundled)'}, version ${spec.document['info']?.['version'] ?? '?'}`,
    requests: ctx.requests,
    checks: ctx.results,
    silences,
  })
}

/** `petstore-mock verify …`: the exit code (0 conforms, 1 drifts, 2 bad usage or unreachable). */
export const verifyCommand = async (
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  out: { write(text: string): unknown } = process.stdout,
  err: { write(text: string): unknown } = process.stderr,
): Promise<number> => {
  let options: VerifyOptions | 'help'
  let spec: Spec
  const environment = new Environment(env)
  try {
    options = parseVerifyArgs(argv, env, environment)
    for (const note of environment.notes) err.write(`${note}\n`)
    if (options === 'help') return (out.write(verifyUsage()), 0)
    spec = options.spec === undefined ? bundledSpec() : (await import('../../start/files.js')).loadSpec(options.spec)
  } catch (error) {
    const usage = error instanceof VerifyUsageError ? `\n\n${verifyUsage()}` : '\n'
    err.write(`petstore-mock verify: ${(error as Error).message}${usage}`)
    return 2
  }
  try {
    const report = await verify(options, spec)
    out.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report))
    return report.conforms ? 0 : 1
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error
    err.write(`petstore-mock verify: cannot reach ${options.url}: ${error.message}\n`)
    return 2
  }
}
