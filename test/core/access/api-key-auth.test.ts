import { describe, expect, it } from 'vitest'
import { contractApp, postJson } from '../../helpers/contract.js'
import { bearer } from '../../helpers/auth.js'

const realmOnly = 'Bearer realm="petstore"'
const invalidToken = 'Bearer realm="petstore", error="invalid_token"'

describe('authentication, no keys configured', () => {
  it.each([
    ['missing header', undefined, realmOnly],
    ['other scheme', 'Basic dXNlcjpwYXNz', realmOnly],
    ['empty token', 'Bearer ', realmOnly],
    ['scheme only', 'Bearer', realmOnly],
    ['token with a space', 'Bearer a b', invalidToken],
    ['token with a forbidden character', 'Bearer a,b', invalidToken],
    ['padding in the middle', 'Bearer a=b', invalidToken],
  ])('%s → 401', async (_, header, challenge) => {
    const { request } = contractApp()
    const res = await request('/v1/pets', { headers: header === undefined ? {} : { Authorization: header } })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe(challenge)
    expect(await res.json()).toMatchObject({ code: 'unauthorized', status: 401 })
  })

  it.each(['Bearer abc', 'bearer abc', 'BEARER abc', 'Bearer a.b-c_d~e+f/g==', 'Bearer 123'])(
    '%s is accepted',
    async (header) => {
      const { request } = contractApp()
      expect((await request('/v1/pets', { headers: { Authorization: header } })).status).toBe(200)
    },
  )
})

describe('authentication with configured keys', () => {
  it('judges every header on its own, however often an accepted one came before (the stage remembers the last verdict)', async () => {
    const { request } = contractApp({ apiKeys: ['key-1'] })
    const status = async (authorization: string | undefined) =>
      (await request('/v1/pets', { headers: authorization === undefined ? {} : { Authorization: authorization } }))
        .status
    const sequence: [string | undefined, number][] = [
      ['Bearer key-1', 200],
      ['Bearer key-1', 200],
      ['Bearer key-2', 401],
      ['Bearer key-1x', 401],
      ['Bearer key-', 401],
      [undefined, 401],
      ['Bearer key-1', 200],
      ['bearer key-1', 200],
      ['Bearer  key-1', 200],
      ['Bearer key-1', 200],
      ['Basic key-1', 401],
    ]
    const seen: [string | undefined, number][] = []
    for (const [authorization] of sequence) seen.push([authorization, await status(authorization)])
    expect(seen).toEqual(sequence)
  })

  it('accepts only the configured keys', async () => {
    const { request } = contractApp({ apiKeys: ['k1', 'k2'] })
    expect((await request('/v1/pets', { headers: bearer('k1') })).status).toBe(200)
    expect((await request('/v1/pets', { headers: bearer('k2') })).status).toBe(200)
    const res = await request('/v1/pets', { headers: bearer('k3') })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe(invalidToken)
    expect(await res.json()).toEqual({ code: 'unauthorized', message: 'Invalid API key.', status: 401 })
  })
})

describe('authentication comes first', () => {
  it.each([
    ['over 400 on a bad limit', '/v1/pets?limit=0', {}],
    ['over 404 on an absent pet', '/v1/pets/999', {}],
    ['over 400 on a bad petId', '/v1/pets/abc', {}],
    [
      'over 400 on a bad body',
      '/v1/pets',
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' },
    ],
    ['over 415', '/v1/pets', { method: 'POST', body: '{}' }],
  ])('401 wins %s', async (_, url, init) => {
    const { request } = contractApp({ apiKeys: ['k1'] })
    expect((await request(url, init as RequestInit)).status).toBe(401)
  })

  it('a failed create creates nothing', async () => {
    const { request } = contractApp({ apiKeys: ['k1'] })
    expect((await request('/v1/pets', postJson({ name: 'a', categoryId: 1 }, bearer('nope')))).status).toBe(401)
    const list = await (await request('/v1/pets?limit=100', { headers: bearer('k1') })).json()
    expect(list.map((p: { name: string }) => p.name)).not.toContain('a')
  })
})
