import { parseArgs } from 'node:util'
import { maxDelayMs } from '../../core/faults/rule-check.js'
import { clockSettingExpectation, isClockSetting } from '../../core/time/clock-range.js'
import { instantExpectation, parseInstant } from '../../core/time/instant.js'
import type { LogFormat } from '../../core/log/log.js'
import { asHostName, asOrigin, wildcardProblem } from '../config/admin-access.js'
import { parseRate, rateExpectation } from '../../core/rate-limit/rate-limit.js'
import { parseSilence } from '../../core/spec/silences.js'
import { parseAdminToken } from '../../core/access/admin-scopes.js'
import { silenceSwitches } from '../config/silence-switches.js'
import { isHttpUrl } from '../../core/proxy/upstream-url.js'
import { configDefaults, type Config } from '../config/config.js'
import { checkStore, storeExpectation } from '../store/store-option.js'
import { type OptionKind, type OptionSpec, optionSpecs } from './options.js'
import { Environment } from '../config/environment.js'
import { conflictOf } from './conflicts.js'
import { dataProfileExpectation, isDataProfile } from '../../core/pets/data-profile.js'
import { closestFlag } from './did-you-mean.js'
import { EmptySecret, OptionConflict, UsageError } from '../config/usage-errors.js'

export { usage } from './help-text.js'

/** What the command line asks for; `notes`: lines for stderr about the variables read (deprecated names). */
export type Command = { run: 'serve'; config: Config; notes: string[] } | { run: 'help' } | { run: 'version' }

const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

const LOG_FORMATS: readonly LogFormat[] = ['pretty', 'json', 'silent']

const listKinds: readonly OptionKind[] = ['list', 'origins', 'hosts', 'tokens']

const listItems = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

const checkedItems = (text: string, check: (item: string) => string | undefined, problem: string): string[] =>
  listItems(text).map((item) => {
    const value = check(item)
    if (value === undefined) throw new UsageError(`${problem} (got "${item}")`)
    return value
  })
const orUsage = (message: string): never => {
  throw new UsageError(message)
}

const parseValue = (spec: OptionSpec, text: string, source: string): unknown => {
  switch (spec.kind) {
    case 'integer': {
      if (!/^(0|-?[1-9][0-9]*)$/.test(text)) throw new UsageError(`${source} must be an integer (got "${text}")`)
      const n = Number(text)
      if (n < (spec.min ?? -Infinity) || n > (spec.max ?? Infinity) || !Number.isSafeInteger(n)) {
        throw new UsageError(`${source} must be between ${spec.min} and ${spec.max} (got ${text})`)
      }
      return n
    }
    case 'boolean':
      if (['true', '1', 'yes', 'on', ''].includes(text.toLowerCase())) return true
      if (['false', '0', 'no', 'off'].includes(text.toLowerCase())) return false
      throw new UsageError(`${source} must be true or false (got "${text}")`)
    case 'list':
      return listItems(text)
    case 'tokens':
      // An empty secret is a mis-set one (PETSTORE_MOCK_ADMIN_TOKEN="" in a compose file): dropped, it
      // would leave /__admin open, and the image says --open-admin.
      if (text.split(',').some((item) => item.trim() === '')) throw new EmptySecret(source)
      return listItems(text).map((item) => {
        const token = parseAdminToken(item)
        // The message never quotes the value: it is a secret.
        if (typeof token === 'string') throw new UsageError(`${source}: ${token}`)
        return item
      })
    case 'origins':
      return checkedItems(text, asOrigin, `${source} takes origins: scheme://host[:port], no path`)
    case 'hosts':
      return listItems(text).map((item) => {
        const wildcard = wildcardProblem(item)
        if (wildcard !== undefined) throw new UsageError(`${source}: ${wildcard} (got "${item}")`)
        return asHostName(item) ?? orUsage(`${source} takes host names without scheme or port (got "${item}")`)
      })
    case 'delay': {
      const match = /^(0|[1-9][0-9]*)(?:-(0|[1-9][0-9]*))?$/.exec(text)
      const min = Number(match?.[1])
      const max = Number(match?.[2] ?? match?.[1])
      if (!match || min > max || max > maxDelayMs) {
        throw new UsageError(`${source} must be MS or MIN-MAX, milliseconds from 0 to ${maxDelayMs} (got "${text}")`)
      }
      return { min, max }
    }
    case 'cors':
      if (text !== 'on' && text !== 'off') throw new UsageError(`${source} must be on or off (got "${text}")`)
      return text === 'on'
    case 'instant': {
      // The one instant option is --clock: within what the clock can be set to.
      const ms = parseInstant(text) ?? orUsage(`${source} must be ${instantExpectation} (got "${text}")`)
      if (!isClockSetting(ms)) throw new UsageError(`${source} must be ${clockSettingExpectation} (got "${text}")`)
      return new Date(ms)
    }
    case 'sunset':
      if (text !== 'enforce' && text !== 'ignore') {
        throw new UsageError(`${source} must be enforce or ignore (got "${text}")`)
      }
      return text
    case 'rate':
      return parseRate(text) ?? orUsage(`${source} must be ${rateExpectation} (got "${text}")`)
    case 'silence': {
      const key = silenceSwitches.find((s) => s.flag === spec.flag)!.key
      const parsed = parseSilence(key, text)
      if (!parsed.ok) throw new UsageError(`${source} must be ${parsed.expected} (got "${text}")`)
      return parsed.value
    }
    case 'url':
      if (!isHttpUrl(text)) throw new UsageError(`${source} must be an absolute http(s) URL (got "${text}")`)
      return text
    case 'store':
      return checkStore(text) ?? orUsage(`${source} must be ${storeExpectation} (got "${text}")`)
    case 'data':
      return isDataProfile(text) ? text : orUsage(`${source} must be ${dataProfileExpectation} (got "${text}")`)
    case 'log':
      if (!LOG_FORMATS.includes(text as LogFormat))
        throw new UsageError(`${source} must be one of ${LOG_FORMATS.join(', ')} (got "${text}")`)
      return text
    default:
      if (text === '') throw new UsageError(`${source} must not be empty`)
      return text
  }
}

const parseOptions = optionSpecs.map((spec) => [
  spec.flag,
  {
    type: spec.kind === 'boolean' ? ('boolean' as const) : ('string' as const),
    multiple: listKinds.includes(spec.kind),
  },
])

/** Pretty on a terminal, JSON lines otherwise. */
export const defaultLogFormat = (stream: { isTTY?: boolean } = process.stdout): LogFormat =>
  stream.isTTY ? 'pretty' : 'json'

/**
 * parseArgs' error as a UsageError: an unknown flag named plainly, with the known flag closest to it
 * (parseArgs' own text goes on about positional arguments, which the server takes none of).
 */
const parseArgsError = (error: Error & { code?: string }): UsageError => {
  const unknown = error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-[^']*)'/.exec(error.message)?.[1] : undefined
  if (unknown === undefined) return new UsageError(error.message)
  const known = [...optionSpecs.map((spec) => spec.flag), 'help', 'version']
  const near = unknown.startsWith('--') ? closestFlag(unknown.slice(2), known) : undefined
  return new UsageError(`unknown option ${unknown}`, near === undefined ? undefined : `did you mean --${near}?`)
}

// A value's own text out of a message: the variable may hold a secret.
const withoutValue = (message: string): string => message.replace(/ \(got [^]*\)$/, '')

/**
 * Reads the command line and the environment into a Config; flags win over
 * variables (PETSTORE_MOCK_…, or their former unprefixed names: environment.ts).
 * Throws UsageError on an unknown flag or a bad value, OptionConflict on options
 * that contradict each other.
 */
export const parseCommandLine = (
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  stdout?: { isTTY?: boolean },
): Command => {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      options: Object.fromEntries([
        ...parseOptions,
        ['help', { type: 'boolean', short: 'h' }],
        ['version', { type: 'boolean', short: 'v' }],
      ]),
      strict: true,
      allowPositionals: false,
    })
  } catch (error) {
    throw parseArgsError(error as Error & { code?: string })
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>
  if (values['help']) return { run: 'help' }
  if (values['version']) return { run: 'version' }
  const config: Record<string, unknown> = { ...configDefaults }
  const environment = new Environment(env)
  const given = new Map<keyof Config, string>()
  for (const spec of optionSpecs) {
    const flagValue = values[spec.flag]
    const key = spec.key ?? camel(spec.flag)
    if (flagValue !== undefined) {
      config[key] =
        typeof flagValue === 'boolean'
          ? flagValue
          : Array.isArray(flagValue)
            ? flagValue.flatMap((v) => parseValue(spec, v, `--${spec.flag}`) as string[])
            : parseValue(spec, flagValue, `--${spec.flag}`)
      given.set(key as keyof Config, `--${spec.flag}`)
      continue
    }
    const variable = environment.read(spec.env, spec.prefixedOnly !== true)
    if (variable === undefined) continue
    try {
      config[key] = parseValue(spec, variable.value, variable.name)
      given.set(key as keyof Config, variable.name)
    } catch (error) {
      if (!variable.legacy || !(error instanceof UsageError) || error instanceof EmptySecret) throw error
      // LOG=debug, set for another tool, made the mock exit 2: an unprefixed value that is none of
      // the option's is taken for someone else's.
      environment.note(
        variable.name,
        `${variable.name} is ignored: ${withoutValue(error.message)}, so it is taken for another tool's; petstore-mock reads ${spec.env}`,
      )
    }
  }
  // Only now, and only without --log or its variable: process.stdout is a stream Node builds on first use.
  config['log'] ??= defaultLogFormat(stdout)
  const conflict = conflictOf(config as unknown as Config, given)
  if (conflict !== undefined) throw new OptionConflict(conflict)
  return { run: 'serve', config: config as unknown as Config, notes: environment.notes }
}
