import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseCommandLine } from '../../../src/node/cli/cli.js'
import { optionSpecs } from '../../../src/node/cli/options.js'
import { readStartData } from '../../../src/node/start/start-data.js'
import {
  fleetFieldOfFlag,
  fleetOptions,
  processOnlyFlags,
  type FleetExtras,
} from '../../../src/node/store/redis/fleet-options.js'
import { fleetDifferences } from '../../../src/node/store/redis/fleet-fingerprint.js'

// Issue 41 §3: the fleet's record covers every option that changes an answer or a limit.
const fixtures = fileURLToPath(new URL('../../../fixtures/pets.yaml', import.meta.url))
const spec = fileURLToPath(new URL('../../../openapi.yaml', import.meta.url))

const recordOf = async (argv: string[], extras: FleetExtras = {}) => {
  const command = parseCommandLine(argv, {})
  if (command.run !== 'serve') throw new Error(`not a start: ${argv.join(' ')}`)
  const data = await readStartData(command.config)
  return fleetOptions(command.config, data.pets, data.faults, undefined, extras)
}

describe("the fleet's record", () => {
  it('names a field for every flag but those of one process', async () => {
    // How one process listens (the --help group "Listening") and which fleet it joins.
    expect(new Set(processOnlyFlags)).toEqual(
      new Set(
        ['host', 'port', 'log', 'max-connections', 'drain-seconds', 'grace-seconds', 'store', 'store-prefix'].concat(
          ['reconfigure', 'redis-password-file', 'redis-ca-file'],
          ['headers', 'request', 'send', 'keep-alive'].map((name) => `${name}-timeout`),
        ),
      ),
    )
    const record = await recordOf([])
    const unclassified = optionSpecs
      .map((spec) => spec.flag)
      .filter((flag) => !processOnlyFlags.includes(flag))
      .filter((flag) => !((fleetFieldOfFlag[flag] ?? flag) in record))
    expect(unclassified).toEqual([])
  })

  // Each flag set otherwise than by default: the record differs in its field, and in it only.
  it.each<[string[], string]>([
    [['--session-by-key'], 'session-by-key'],
    [['--api-key', 'only-this'], 'api-key'],
    [['--admin-token', 'adm'], 'admin-token'],
    [['--seed', '9'], 'seed'],
    [['--faker', '--count', '3'], 'pets'],
    [['--fixtures', fixtures], 'pets'],
    [['--spec', spec], 'spec'],
    [['--body-limit', '1000'], 'body-limit'],
    [['--max-pets', '20'], 'max-pets'],
    [['--max-sessions', '10'], 'max-sessions'],
    [['--session-ttl', '60'], 'session-ttl'],
    [['--journal-size', '10'], 'journal-size'],
    [['--delay', '5'], 'delay'],
    [['--redact', 'X-Team'], 'redact'],
    [['--cors', 'off'], 'cors'],
    [['--cors-origin', 'https://qa.example'], 'cors'],
    [['--admin-cors-origin', 'https://qa.example'], 'admin-cors-origins'],
    [['--allowed-hosts', 'mock.example'], 'allowed-hosts'],
    [['--clock', '2030-12-05T00:00:00Z'], 'clock'],
    [['--sunset', 'ignore'], 'sunset'],
    [['--rate-limit', '10/m'], 'rate-limit'],
    // A proxy start serves the deployment's pets, none of its own.
    [['--proxy', 'http://127.0.0.1:9'], 'pets proxy'],
    [['--metrics', 'off'], 'metrics'],
  ])('%j changes %s only', async (argv, fields) => {
    const differences = fleetDifferences(await recordOf(argv), await recordOf([]))
    expect(differences.map((line) => line.slice(0, line.indexOf(':')))).toEqual(fields.split(' '))
  })

  it('the memory budget and every admin token (flags and file) come from the start', async () => {
    const differences = fleetDifferences(
      await recordOf([], { maxMemoryMiB: 200, adminTokens: ['from-file'], openAdmin: true }),
      await recordOf([], { maxMemoryMiB: 100 }),
    )
    expect(differences).toEqual([
      'admin-token: this replica\'s "sha256:' +
        differences[0]!.split('sha256:')[1]!.slice(0, 12) +
        '", the fleet\'s "none"',
      "max-memory: this replica's 200, the fleet's 100",
      "open-admin: this replica's true, the fleet's false",
    ])
  })

  it('the flags of one process change nothing', async () => {
    const store = ['--store', 'redis://127.0.0.1:6379']
    const base = await recordOf(store)
    for (const argv of [
      ['--port', '4011'],
      ['--log', 'json'],
      ['--request-timeout', '40000'],
      ['--keep-alive-timeout', '1000'],
      ['--max-connections', '10'],
      ['--store-prefix', 'other'],
      ['--reconfigure'],
    ]) {
      expect(fleetDifferences(await recordOf([...store, ...argv]), base), argv.join(' ')).toEqual([])
    }
  })

  it('keeps no secret in clear, and API keys in any order are the same', async () => {
    const one = await recordOf(['--api-key', 'k-one', '--api-key', 'k-two', '--admin-token', 'adm-secret'])
    const two = await recordOf(['--api-key', 'k-two', '--api-key', 'k-one', '--admin-token', 'adm-secret'])
    expect(fleetDifferences(one, two)).toEqual([])
    for (const secret of ['k-one', 'k-two', 'adm-secret']) expect(JSON.stringify(one)).not.toContain(secret)
    const withPassword = await recordOf(['--proxy', 'http://user:hunter2@127.0.0.1:9'])
    expect(JSON.stringify(withPassword)).not.toContain('hunter2')
  })
})
