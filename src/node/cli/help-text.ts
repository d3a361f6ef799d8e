import { envPrefix } from '../config/environment.js'
import { type OptionKind, type OptionSpec, optionSpecs } from './options.js'
import { silenceSwitches } from '../config/silence-switches.js'

/** The kinds of option that take a value more than once (repeat the flag). */
const repeatable: readonly OptionKind[] = ['list', 'origins', 'hosts', 'tokens']

/** The --help groups, in order: a title and its flags. An option in none is listed under "Other". */
export const helpGroups: readonly { title: string; flags: readonly string[] }[] = [
  {
    title: 'Listening',
    flags: [
      'host',
      'port',
      'log',
      'headers-timeout',
      'request-timeout',
      'send-timeout',
      'keep-alive-timeout',
      'max-connections',
      'drain-seconds',
      'grace-seconds',
    ],
  },
  { title: 'Data', flags: ['fixtures', 'faker', 'count', 'data', 'seed', 'spec', 'snapshot'] },
  { title: 'Behaviour', flags: ['api-key', 'faults', 'delay', 'clock', 'sunset', 'rate-limit'] },
  {
    title: 'Limits',
    flags: ['body-limit', 'max-pets', 'max-sessions', 'max-memory', 'journal-size', 'session-ttl'],
  },
  {
    title: 'Sessions and store',
    flags: ['session-by-key', 'store', 'store-prefix', 'redis-password-file', 'redis-ca-file', 'reconfigure'],
  },
  {
    title: 'Admin API and browsers',
    flags: [
      'admin-token',
      'admin-tokens-file',
      'tenants',
      'open-admin',
      'redact',
      'admin-cors-origin',
      'allowed-hosts',
      'cors',
      'cors-origin',
    ],
  },
  { title: 'Proxy', flags: ['proxy', 'proxy-timeout', 'proxy-flag-violations'] },
  { title: 'Observability', flags: ['metrics'] },
  { title: "The spec's silences (docs/reference/spec-silences.md)", flags: silenceSwitches.map((s) => s.flag) },
]

/** `text` broken at spaces into lines of at most `width` characters, each after `indent` spaces (a longer word stays whole). */
export const wrap = (text: string, indent: number, width: number): string[] => {
  const room = Math.max(width - indent, 20)
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > room) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  if (line !== '') lines.push(line)
  return lines.map((l) => ' '.repeat(indent) + l)
}

const optionRows = (spec: OptionSpec, width: number): string[] => {
  const arg = spec.kind === 'boolean' ? '' : repeatable.includes(spec.kind) ? ' <value>…' : ' <value>'
  return [
    `  --${spec.flag}${arg}`,
    ...wrap(`${spec.help}.`, 6, width),
    ...wrap(`Env ${spec.env}. Default: ${spec.default ?? '-'}`, 6, width),
  ]
}

/**
 * The --help text: the commands, then every option with its variable and default, in groups, wrapped
 * to `width` columns (the terminal's; 80 when stdout is no terminal).
 */
export const usage = (width: number = process.stdout.columns || 80): string => {
  const grouped = new Set(helpGroups.flatMap((group) => group.flags))
  const groups = [
    ...helpGroups.map(({ title, flags }) => ({
      title,
      specs: flags.flatMap((flag) => optionSpecs.filter((spec) => spec.flag === flag)),
    })),
    { title: 'Other', specs: optionSpecs.filter((spec) => !grouped.has(spec.flag)) },
  ].filter((group) => group.specs.length > 0)
  return [
    'Usage: petstore-mock [options]',
    '       petstore-mock verify URL [options]',
    '       petstore-mock coverage URL [options]',
    '       petstore-mock pact URL --consumer NAME [options]',
    '       petstore-mock mcp --url URL [options]',
    '',
    ...wrap(
      'A contract-exact, stateful mock of the Pet Store API. verify checks a deployment against the contract; ' +
        'coverage reports the contract coverage of a session (a CI gate); pact writes a Pact file of what a ' +
        'session did; mcp bridges an MCP client on stdio to a running mock. Each subcommand has its own --help.',
      0,
      width,
    ),
    '',
    ...wrap(
      `Each option is also an environment variable; flags win. The variables' former names, without ${envPrefix}, are still read, with a note on stderr; the prefixed name wins over them.`,
      0,
      width,
    ),
    ...groups.flatMap(({ title, specs }) => ['', `${title}:`, ...specs.flatMap((spec) => optionRows(spec, width))]),
    '',
    '  -h, --help       Show this help',
    '  -v, --version    Show the version',
    '',
  ].join('\n')
}
