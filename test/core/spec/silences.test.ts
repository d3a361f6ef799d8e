import { describe, expect, it } from 'vitest'
import { createApp } from '../../../src/core/app.js'
import fc from 'fast-check'
import { checkSilences, clampedRaws, parseSilence, type SpecSilences } from '../../../src/core/spec/silences.js'
import { createHandlers, PetstoreMockError } from '../../../src/msw/index.js'
import { parseCommandLine } from '../../../src/node/cli/cli.js'
import { UsageError } from '../../../src/node/config/usage-errors.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { useMswMock } from '../../helpers/msw.js'

const list = (silences: Partial<SpecSilences>, query: string) =>
  contractApp({ silences }).request(`/v1/pets${query}`, { headers: auth() })

const create = (silences: Partial<SpecSilences>, body: unknown) =>
  contractApp({ silences }).request('/v1/pets', postJson(body))

describe('--limit-range', () => {
  it.each<[SpecSilences['limitRange'] | undefined, string, number, number | undefined]>([
    // [reading, query, status, items]
    [undefined, '?limit=0', 400, undefined],
    [undefined, '?limit=101', 400, undefined],
    ['reject', '?limit=0', 400, undefined],
    ['reject', '?limit=-5', 400, undefined],
    ['reject', '?limit=101', 400, undefined],
    ['clamp', '?limit=0', 200, 1],
    ['clamp', '?limit=-5', 200, 1],
    ['clamp', '?limit=101', 200, 12],
    ['clamp', '?limit=99999999999999999999', 200, 12],
    ['clamp', '?limit=3', 200, 3],
    ['clamp', '?limit=1.5', 400, undefined],
    ['clamp', '?limit=01', 400, undefined],
    ['clamp', '?limit=0&limit=1', 400, undefined],
    ['clamp', '?limit=0&status=sold', 200, 1],
  ])('%s: %s → %i', async (limitRange, query, status, items) => {
    const res = await list(limitRange ? { limitRange } : {}, query)
    expect(res.status).toBe(status)
    const body = await res.json()
    if (items === undefined) expect(body).toMatchObject({ code: 'bad_request', status: 400 })
    else expect(body).toHaveLength(items)
  })

  it('reject names the bounds', async () => {
    const body = await (await list({ limitRange: 'reject' }, '?limit=101')).json()
    expect(body.message).toBe('limit must be an integer between 1 and 100 (got "101").')
  })
})

describe('--default-status', () => {
  it.each<[SpecSilences['defaultStatus'] | undefined, unknown]>([
    [undefined, undefined],
    ['none', undefined],
    ['available', 'available'],
    ['pending', 'pending'],
    ['sold', 'sold'],
  ])('%s: a pet created without status gets %s', async (defaultStatus, expected) => {
    const { request } = contractApp({ silences: defaultStatus ? { defaultStatus } : {} })
    const res = await request('/v1/pets', postJson({ name: 'Rex', categoryId: 2 }))
    expect(res.status).toBe(201)
    const pet = await res.json()
    expect(pet).toEqual({ id: 13, name: 'Rex', categoryId: 2, ...(expected !== undefined && { status: expected }) })
    expect('status' in pet).toBe(expected !== undefined)
    const read = await request('/v1/pets/13', { headers: auth() })
    expect(await read.json()).toEqual(pet)
  })

  it('a status sent is kept whatever the default', async () => {
    const res = await create({ defaultStatus: 'available' }, { name: 'Rex', categoryId: 2, status: 'sold' })
    expect(await res.json()).toMatchObject({ status: 'sold' })
  })
})

describe('--categories', () => {
  it.each<[SpecSilences['categories'] | undefined, number, number]>([
    [undefined, 987654321, 201],
    ['any', 987654321, 201],
    [[1, 2], 1, 201],
    [[1, 2], 2, 201],
    [[1, 2], 3, 400],
    [[1, 2], 987654321, 400],
  ])('%j: categoryId %i → %i', async (categories, categoryId, status) => {
    const res = await create(categories ? { categories } : {}, { name: 'Rex', categoryId })
    expect(res.status).toBe(status)
    if (status === 400) {
      expect(await res.json()).toEqual({
        code: 'bad_request',
        message: `categoryId ${categoryId} is not a known category (known: 1, 2).`,
        status: 400,
      })
    }
  })

  it('a refused pet is not created', async () => {
    const { request } = contractApp({ silences: { categories: [1] } })
    expect((await request('/v1/pets', postJson({ name: 'Rex', categoryId: 9 }))).status).toBe(400)
    expect((await request('/v1/pets/13', { headers: auth() })).status).toBe(404)
  })
})

describe('--unknown-fields', () => {
  it.each<[SpecSilences['unknownFields'] | undefined, Record<string, unknown>, number, string | undefined]>([
    [undefined, { nickname: 'R' }, 201, undefined],
    ['ignore', { nickname: 'R', id: 99 }, 201, undefined],
    ['reject', { nickname: 'R' }, 400, 'nickname'],
    ['reject', { id: 99 }, 400, 'id'],
    ['reject', {}, 201, undefined],
  ])('%s: extra %j → %i', async (unknownFields, extra, status, field) => {
    const res = await create(unknownFields ? { unknownFields } : {}, { name: 'Rex', categoryId: 2, ...extra })
    expect(res.status).toBe(status)
    const body = await res.json()
    if (field) {
      expect(body).toEqual({
        code: 'bad_request',
        message: `${field} is not a field of a new pet (fields: name, categoryId, status).`,
        status: 400,
      })
    } else expect(body).toEqual({ id: 13, name: 'Rex', categoryId: 2 })
  })

  it('a schema error still wins over an unknown field', async () => {
    const res = await create({ unknownFields: 'reject' }, { name: 5, categoryId: 2, nickname: 'R' })
    expect((await res.json()).message).toBe('name must be a string.')
  })
})

describe('the switches as options', () => {
  const serve = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const command = parseCommandLine(argv, env, { isTTY: false })
    if (command.run !== 'serve') throw new Error(command.run)
    return command.config
  }

  it('default exactly as before', () => {
    expect(serve([])).toMatchObject({
      limitRange: 'reject',
      defaultStatus: 'none',
      categories: 'any',
      unknownFields: 'ignore',
    })
  })

  it('read from flags and variables; flags win', () => {
    expect(
      serve([
        '--limit-range',
        'clamp',
        '--default-status',
        'available',
        '--categories',
        '1, 2,2',
        '--unknown-fields',
        'reject',
      ]),
    ).toMatchObject({ limitRange: 'clamp', defaultStatus: 'available', categories: [1, 2], unknownFields: 'reject' })
    expect(
      serve([], {
        PETSTORE_MOCK_LIMIT_RANGE: 'clamp',
        PETSTORE_MOCK_DEFAULT_STATUS: 'sold',
        PETSTORE_MOCK_CATEGORIES: 'any',
        PETSTORE_MOCK_UNKNOWN_FIELDS: 'reject',
      }),
    ).toMatchObject({ limitRange: 'clamp', defaultStatus: 'sold', categories: 'any', unknownFields: 'reject' })
    expect(serve(['--limit-range', 'reject'], { PETSTORE_MOCK_LIMIT_RANGE: 'clamp' }).limitRange).toBe('reject')
  })

  it.each([
    [['--limit-range', 'cap'], '--limit-range must be reject or clamp (got "cap")'],
    [['--default-status', 'lost'], '--default-status must be none, available, pending, sold (got "lost")'],
    [['--categories', '1,x'], '--categories must be any, or a comma-separated list of integer categoryIds (got "1,x")'],
    [['--categories', ''], '--categories must be any, or a comma-separated list of integer categoryIds (got "")'],
    [['--categories', '1.5'], '--categories must be any'],
    [['--unknown-fields', 'drop'], '--unknown-fields must be ignore or reject (got "drop")'],
  ])('%j is a usage error', (argv, message) => {
    expect(() => serve(argv)).toThrow(UsageError)
    expect(() => serve(argv)).toThrow(message)
  })

  it('a bad variable names the variable', () => {
    expect(() => serve([], { PETSTORE_MOCK_LIMIT_RANGE: 'cap' })).toThrow(
      'PETSTORE_MOCK_LIMIT_RANGE must be reject or clamp (got "cap")',
    )
  })

  it.each<[unknown, string]>([
    [{ limitRange: 'cap' }, 'silences.limitRange must be reject or clamp (got "cap")'],
    [{ defaultStatus: null }, 'silences.defaultStatus must be none, available, pending, sold (got null)'],
    [{ categories: [] }, 'silences.categories must be any, or a comma-separated list of integer categoryIds (got [])'],
    [{ categories: [1, 2.5] }, 'silences.categories must be any'],
    [{ unknownFields: true }, 'silences.unknownFields must be ignore or reject (got true)'],
    [{ sortOrder: 'desc' }, 'silences.sortOrder is not a known switch'],
    ['clamp', 'silences must be an object'],
  ])('createApp and createHandlers refuse %j', (silences, message) => {
    expect(() => createApp({ silences: silences as never })).toThrow(TypeError)
    expect(() => createApp({ silences: silences as never })).toThrow(message)
    expect(() => createHandlers({ origins: 'any', silences: silences as never })).toThrow(PetstoreMockError)
    expect(() => createHandlers({ origins: 'any', silences: silences as never })).toThrow(
      `petstore-mock/msw: ${message}`,
    )
  })

  it('checkSilences fills in the defaults; parseSilence reads lists', () => {
    expect(checkSilences({ limitRange: 'clamp' })).toEqual({
      limitRange: 'clamp',
      defaultStatus: 'none',
      categories: 'any',
      unknownFields: 'ignore',
    })
    expect(parseSilence('categories', '3,1,3')).toEqual({ ok: true, value: [3, 1] })
  })
})

describe('the msw host', () => {
  const { request } = useMswMock({ silences: { limitRange: 'clamp', defaultStatus: 'pending' } })

  it('reads the switches too', async () => {
    const res = await request('/v1/pets?limit=500', { headers: auth() })
    expect(res.status).toBe(200)
    const created = await request('/v1/pets', postJson({ name: 'Rex', categoryId: 1 }))
    expect(await created.json()).toMatchObject({ status: 'pending' })
  })
})

describe('clampedRaws (property)', () => {
  const limit = { type: 'integer', minimum: 1, maximum: 100 }

  it('brings any canonical integer into the bounds, and leaves one inside them as it is', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger(), fc.maxSafeNat()), (n) => {
        const [raw] = clampedRaws(limit, [String(n)])
        const value = Number(raw)
        expect(value).toBeGreaterThanOrEqual(1)
        expect(value).toBeLessThanOrEqual(100)
        if (n >= 1 && n <= 100) expect(raw).toBe(String(n))
        else expect(value).toBe(n < 1 ? 1 : 100)
      }),
    )
  })

  it('leaves anything else for validation to refuse', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^(0|-?[1-9][0-9]*)$/.test(s)),
        (text) => void expect(clampedRaws(limit, [text])).toEqual([text]),
      ),
    )
    expect(clampedRaws(limit, ['0', '0'])).toEqual(['0', '0'])
    expect(clampedRaws({ type: 'string' }, ['0'])).toEqual(['0'])
  })
})
