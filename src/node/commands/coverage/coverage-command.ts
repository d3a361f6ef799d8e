import type { MockClient } from '../../../client/mock-client.js'
import { coverageJunit, coverageMarkdown, coverageText } from '../../../core/coverage/coverage-format.js'
import { reaches, uncovered } from '../../../core/coverage/coverage-report.js'
import { adminTokenVariable, CliUsageError, clientOf, fail, type Output, parseWords } from '../mock-admin.js'

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
    const { values, positionals } = parseWords(argv, {
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
    client = clientOf('coverage', positionals, values, env, err)
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
