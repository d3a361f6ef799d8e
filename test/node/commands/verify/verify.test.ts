import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { SpecSilences } from '../../../../src/core/spec/silences.js'
import { bundledSpec } from '../../../../src/core/spec/bundled-spec.js'
import { parseCommandLine } from '../../../../src/node/cli/cli.js'
import { NoAnswer } from '../../../../src/node/commands/verify/probe.js'
import { baseUrlOf } from '../../../../src/core/proxy/upstream-url.js'
import { verify, type VerifyOptions } from '../../../../src/node/commands/verify/command.js'
import { formatReport, type VerifyReport } from '../../../../src/node/commands/verify/report.js'
import { type Drift, type StandIn, startStandIn } from '../../../helpers/stand-in.js'
import { freePort } from '../../../helpers/free-port.js'

const spec = bundledSpec()
let standIn: StandIn | undefined
afterEach(async () => {
  await standIn?.close()
  standIn = undefined
})

const options = (url: string, more: Partial<VerifyOptions> = {}): VerifyOptions => ({
  url,
  token: 'verify-token',
  json: false,
  writes: true,
  timeoutMs: 5000,
  ...more,
})

const run = async (
  drift?: Drift,
  more: Partial<VerifyOptions> = {},
  silences: Partial<SpecSilences> = {},
): Promise<VerifyReport> => {
  standIn = await startStandIn(drift, { silences })
  return verify(options(standIn.url, more), spec)
}

const driftLines = (report: VerifyReport): string[] => [...new Set(report.checks.flatMap((c) => c.drifts))]

const settings = (report: VerifyReport) => Object.fromEntries(report.silences.map((s) => [s.key, s.setting]))

describe('verify against a conforming deployment (the mock)', () => {
  it('finds no drift, runs every check, and reads the default silences', async () => {
    const report = await run()
    expect(driftLines(report)).toEqual([])
    expect(report.conforms).toBe(true)
    expect(report.skipped).toBe(0)
    expect(report.checks.map((c) => c.id)).toEqual([
      'listPets.401.no-key',
      'listPets.401.malformed-key',
      'getPet.401.no-key',
      'listPets.200',
      'listPets.200.limit',
      'listPets.200.status',
      'getPet.404',
      'getPet.200.listed',
      'createPet.401.no-key',
      'createPet.400.without-name',
      'createPet.400.without-categoryId',
      'createPet.400.name-as-a-number',
      'createPet.400.categoryId-as-a-string',
      'createPet.400.status-outside-its-enum',
      'createPet.400.not-JSON',
      'createPet.400.an-array-not-an-object',
      'createPet.201',
      'getPet.200.created',
      'listPets.200.created',
    ])
    expect(settings(report)).toEqual({
      limitRange: '--limit-range reject',
      defaultStatus: '--default-status none',
      unknownFields: '--unknown-fields ignore',
      categories: '--categories any',
      errorCodes: undefined,
    })
    expect(report.silences.at(-1)).toEqual({
      key: 'errorCodes',
      observed: '400 bad_request, 401 unauthorized, 404 not_found',
      note: 'as the mock answers',
    })
    // A fixed number of requests: the scenario's and the silences' probes, nothing more.
    expect(report.requests).toBe(24)
    expect(standIn!.requests()).toBe(24)
  })

  it('the plain report: one line per check, the silences, the mock command line, the verdict', async () => {
    const text = formatReport(await run())
    const lines = text.split('\n')
    expect(lines.filter((l) => l.startsWith('ok     '))).toHaveLength(19)
    expect(text).toContain('ok     createPet with a body without name → 400\n')
    expect(text).toContain(
      'The mock like this deployment: petstore-mock --limit-range reject --default-status none --unknown-fields ignore --categories any\n',
    )
    expect(lines.at(-2)).toBe('Conforms: 19 checks, no drift (0 skipped, 24 requests).')
  })

  it('--no-writes sends no POST and says what it skipped', async () => {
    const report = await run(undefined, { writes: false })
    expect(standIn!.posts()).toBe(0)
    expect(report.requests).toBe(10)
    expect(report.conforms).toBe(true)
    expect(report.checks.filter((c) => c.outcome === 'skipped').map((c) => [c.id, c.note])).toEqual([
      ['createPet.401.no-key', '--no-writes'],
      ...[
        'without-name',
        'without-categoryId',
        'name-as-a-number',
        'categoryId-as-a-string',
        'status-outside-its-enum',
        'not-JSON',
        'an-array-not-an-object',
      ].map((id) => [`createPet.400.${id}`, '--no-writes']),
      ['createPet.201', '--no-writes'],
      ['getPet.200.created', '--no-writes'],
      ['listPets.200.created', '--no-writes'],
    ])
    expect(report.silences.slice(1, 4)).toEqual(
      ['defaultStatus', 'unknownFields', 'categories'].map((key) => ({
        key,
        observed: 'not observed',
        note: 'skipped: --no-writes',
      })),
    )
    expect(formatReport(report)).toContain('skip   createPet → 201 Pet, the fields sent (--no-writes)\n')
  })
})

describe('verify names every known drift of the stand-in, and only it', () => {
  it.each<[Drift, string[]]>([
    ['missing-field', ['listPets: item 0 lacks required categoryId, the contract says a Pets']],
    ['wrong-status', ['createPet: 200, the contract says 201 (a status it does not document)']],
    [
      'error-missing-field',
      [
        'listPets: 401 body is not an Error: lacks required message',
        'getPet: 401 body is not an Error: lacks required message',
        'getPet: 404 body is not an Error: lacks required message',
        'createPet: 401 body is not an Error: lacks required message',
        'createPet: 400 body is not an Error: lacks required message',
      ],
    ],
    [
      'text-not-json',
      [
        'listPets: 200 body is Content-Type text/plain ("pets: [{"id":1,"name":"Biscuit","categor…"), the contract says application/json Pets',
      ],
    ],
    ['no-deprecation', ['getPet: no Deprecation header, the contract marks getPet deprecated']],
    [
      'id-type',
      [
        'listPets: item 0 id must be an integer (got "1"), the contract says a Pets',
        'createPet: id must be an integer (got "13"), the contract says a Pet',
        // The silences' probes create pets too, and their answers are checked as well.
        'createPet: id must be an integer (got "14"), the contract says a Pet',
        'createPet: id must be an integer (got "15"), the contract says a Pet',
        'createPet: id must be an integer (got "16"), the contract says a Pet',
      ],
    ],
  ])('%s', async (drift, expected) => {
    const report = await run(drift)
    expect(report.conforms).toBe(false)
    expect(driftLines(report)).toEqual(expected)
    for (const line of expected) expect(formatReport(report)).toContain(`: ${line}\n`)
  })

  it('a reading of a silence no switch reproduces (limit out of range → 422) is said so, not a drift', async () => {
    const report = await run('limit-422')
    expect(report.conforms).toBe(true)
    expect(report.silences[0]).toEqual({
      key: 'limitRange',
      observed: 'limit=0 → 422, limit=101 → 422',
      note: 'no setting of the mock answers this way',
    })
    expect(report.mockCommand).toBe('petstore-mock --default-status none --unknown-fields ignore --categories any')
  })
})

describe('verify reads each silence as the deployment does', () => {
  it.each<[Partial<SpecSilences>, keyof SpecSilences, string]>([
    [{ limitRange: 'reject' }, 'limitRange', '--limit-range reject'],
    [{ limitRange: 'clamp' }, 'limitRange', '--limit-range clamp'],
    [{ defaultStatus: 'none' }, 'defaultStatus', '--default-status none'],
    [{ defaultStatus: 'available' }, 'defaultStatus', '--default-status available'],
    [{ defaultStatus: 'pending' }, 'defaultStatus', '--default-status pending'],
    [{ defaultStatus: 'sold' }, 'defaultStatus', '--default-status sold'],
    [{ unknownFields: 'ignore' }, 'unknownFields', '--unknown-fields ignore'],
    [{ unknownFields: 'reject' }, 'unknownFields', '--unknown-fields reject'],
    [{ categories: 'any' }, 'categories', '--categories any'],
    [{ categories: [1, 2, 3, 4, 5] }, 'categories', '--categories 1,2,3,4,5'],
  ])('%j → %s', async (silences, key, setting) => {
    const report = await run(undefined, {}, silences)
    expect(driftLines(report)).toEqual([])
    expect(settings(report)[key]).toBe(setting)
    expect(report.mockCommand).toContain(setting)
  })

  it('the command line printed makes the mock read every silence as the deployment does', async () => {
    const readings: SpecSilences = {
      limitRange: 'clamp',
      defaultStatus: 'sold',
      unknownFields: 'reject',
      categories: [1, 2, 3, 4, 5],
    }
    const first = await run(undefined, {}, readings)
    await standIn!.close()
    standIn = undefined
    const command = parseCommandLine(first.mockCommand.split(' ').slice(1), {}, { isTTY: false })
    if (command.run !== 'serve') throw new Error(command.run)
    const { limitRange, defaultStatus, unknownFields, categories } = command.config
    expect({ limitRange, defaultStatus, unknownFields, categories }).toEqual(readings)
    const again = await run(undefined, {}, { limitRange, defaultStatus, unknownFields, categories })
    expect(again.mockCommand).toBe(first.mockCommand)
  })
})

describe('verify when the deployment cannot be reached', () => {
  it('a closed port: NoAnswer naming the request', async () => {
    const port = await freePort()
    const failure = await verify(options(`http://127.0.0.1:${port}`), spec).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(NoAnswer)
    expect((failure as Error).message).toBe(`GET http://127.0.0.1:${port}/v1/pets: ECONNREFUSED`)
  })

  it('a deployment that never answers: NoAnswer within the timeout', async () => {
    const server: Server = createServer(() => {})
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as AddressInfo
    try {
      const failure = await verify(options(`http://127.0.0.1:${port}/v1`, { timeoutMs: 200 }), spec).catch((e) => e)
      expect(failure).toBeInstanceOf(NoAnswer)
      expect((failure as Error).message).toBe(`GET http://127.0.0.1:${port}/v1/pets: no answer in time`)
    } finally {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    }
  })

  it('adds the base path when the URL lacks it', () => {
    expect(baseUrlOf('http://h:1', '/v1')).toBe('http://h:1/v1')
    expect(baseUrlOf('http://h:1/', '/v1')).toBe('http://h:1/v1')
    expect(baseUrlOf('http://h:1/v1/', '/v1')).toBe('http://h:1/v1')
    expect(baseUrlOf('https://staging.example.com/api/v1', '/v1')).toBe('https://staging.example.com/api/v1')
  })
})
