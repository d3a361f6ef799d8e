import { describe, expect, it } from 'vitest'
import { folded } from '../../../src/core/http/respond.js'
import { noScriptHeaders } from '../../../src/core/http/no-script.js'
import { auth, contractApp } from '../../helpers/contract.js'
import { RepeatedParts } from '../../../src/core/journal/repeated-parts.js'

// respond.ts folds an answer's own headers and the request's (a deprecated operation's lifecycle
// headers, a rate limit's counts) into one record, and hands the same record out again while the
// same two records come; the journal's RepeatedParts redacts a record it was given last time once.
// Neither may change what an answer or a journal entry says.
const json = { 'content-type': 'application/json', ...noScriptHeaders }
const lifecycle = { deprecation: '@0', sunset: 'Wed, 01 Jan 2031 00:00:00 GMT' }

describe('folded: an answer’s header record with the request’s', () => {
  it('the request’s headers over the answer’s, and the no-script ones over both', () => {
    const rule = { 'content-type': 'text/html', 'content-security-policy': "default-src 'self'", 'x-a': '1' }
    const extra = { 'x-a': '2', 'x-content-type-options': 'sniff' }
    expect(folded(rule, extra)).toEqual({ ...rule, 'x-a': '2', ...noScriptHeaders })
  })

  it('the same two records give the same frozen record; any other pair its own', () => {
    const first = folded(json, lifecycle)
    expect(folded(json, lifecycle)).toBe(first)
    expect(Object.isFrozen(first)).toBe(true)
    const error = { ...json, 'www-authenticate': 'Bearer' }
    expect(folded(error, lifecycle)).toEqual({ ...error, ...lifecycle })
    // A new record of the same request's headers with other values (a rate limit's counts) is not the last one's.
    const counts = (r: number) => ({ ...lifecycle, ratelimit: `"default";r=${r};t=60` })
    expect(folded(json, counts(1)).ratelimit).toBe('"default";r=1;t=60')
    expect(folded(json, counts(0)).ratelimit).toBe('"default";r=0;t=60')
    expect(folded(json, lifecycle)).toEqual(first)
  })
})

describe('a deprecated operation’s answers, one after another', () => {
  const headersOf = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => name !== 'x-request-id'))

  it('getPet: every answer carries its lifecycle and no-script headers; its rate-limit counts move on', async () => {
    const { request } = contractApp({ rateLimit: { limit: 5, windowSeconds: 60 } })
    const seen: Record<string, string>[] = []
    for (const path of ['/v1/pets/1', '/v1/pets/1', '/v1/pets/999999', '/v1/pets/1', '/v1/pets']) {
      const res = await request(path, { headers: auth() })
      seen.push(headersOf(res))
    }
    for (const [i, headers] of seen.entries()) {
      expect(headers['content-security-policy'], `answer ${i}`).toBe(noScriptHeaders['content-security-policy'])
      expect(headers['x-content-type-options'], `answer ${i}`).toBe('nosniff')
      expect(headers['ratelimit'], `answer ${i}`).toMatch(new RegExp(`r=${4 - i};`))
    }
    for (const i of [0, 1, 2, 3]) {
      expect(seen[i]!['deprecation'], `answer ${i}`).toBeDefined()
      expect(seen[i]!['sunset'], `answer ${i}`).toBeDefined()
      expect(seen[i]!['link'], `answer ${i}`).toBeDefined()
    }
    // listPets is not deprecated: nothing of getPet's lifecycle rides on its answer.
    expect(seen[4]!['deprecation']).toBeUndefined()
    expect({ ...seen[0], ratelimit: '' }).toEqual({ ...seen[1], ratelimit: '' })
  })

  it('without a rate limit, two answers of getPet carry the same headers', async () => {
    const { request } = contractApp()
    const one = headersOf(await request('/v1/pets/1', { headers: auth() }))
    const two = headersOf(await request('/v1/pets/1', { headers: auth() }))
    expect(two).toEqual(one)
    expect(Object.keys(one)).toEqual(
      expect.arrayContaining(['deprecation', 'sunset', 'link', 'content-security-policy']),
    )
  })
})

const cookieOf = (recorded: { headers: unknown }) => (recorded.headers as Record<string, string>)['set-cookie']

describe('RepeatedParts.response: the record given last time', () => {
  it('redacts a secret every time, the same record or a new one', () => {
    const parts = new RepeatedParts()
    const cookie = { ...json, 'set-cookie': 'sid=secret' }
    const first = parts.response(200, cookie, '{}', true)
    expect(cookieOf(first)).toBe('[redacted]')
    expect(cookieOf(parts.response(200, cookie, '{}', true))).toBe('[redacted]')
    const other = { ...json, 'set-cookie': 'sid=other' }
    expect(cookieOf(parts.response(200, other, '{}', true))).toBe('[redacted]')
    const plain = parts.response(200, json, '{}', true)
    expect(plain.headers).toBe(json)
    expect(parts.response(201, json, '{}', true)).toMatchObject({ status: 201, headers: json })
  })
})
