import { describe, expect, it } from 'vitest'
import { auth, contractApp } from '../../helpers/contract.js'
import { onePet } from '../../helpers/fixtures.js'
import {
  redactedHeaders,
  redactedQueryParameters,
  redactionOf,
  redactUrl,
} from '../../../src/core/journal/redaction.js'

// Issue 40 §3: the journal and the HAR kept Cookie, Proxy-Authorization, X-Admin-Token and ?token=
// exactly as sent; only Authorization was redacted. Contract suites run on memory and on Redis
// (vitest.redis.config.ts), where the journal is stored too.

const pets = onePet()
const session = { 'X-Mock-Session': 'default' }
const secret = 'hunter2-SECRET-value'

const credentialHeaders = {
  Cookie: `session=${secret}; theme=dark`,
  'Proxy-Authorization': `Basic ${secret}`,
  'X-Admin-Token': secret,
  'X-Api-Key': secret,
  'X-Auth-Token': secret,
  'X-Team-Secret': secret,
  'X-Request-Note': 'kept as sent',
}

const credentialQuery =
  `limit=5&token=${secret}&access_token=${secret}&API_KEY=${secret}&password=${secret}` +
  `&%73ecret=${secret}&sig=${secret}&team_sig=${secret}&status=sold`

const journal = async (request: ReturnType<typeof contractApp>['request']) =>
  (await (await request('/__admin/requests', { headers: session })).json()).requests as Record<string, any>[]

const har = async (request: ReturnType<typeof contractApp>['request']) =>
  (await (await request('/__admin/requests.har', { headers: session })).json()).log.entries as Record<string, any>[]

describe('the journal and the HAR redact credentials', () => {
  it('request headers, query parameters and answer headers: no secret is kept, the rest is as sent', async () => {
    const { request } = contractApp({ pets, redact: ['X-Team-Secret', 'team_sig'] })
    // A rule that answers with a Set-Cookie, as a deployment behind --proxy may.
    const rule = await request('/__admin/faults', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...session },
      body: JSON.stringify({
        operation: 'getPet',
        status: 200,
        headers: { 'Set-Cookie': `sid=${secret}; HttpOnly`, 'X-Api-Key': secret },
        body: { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      }),
    })
    expect(rule.status).toBe(201)
    await request(`/v1/pets?${credentialQuery}`, { headers: auth(credentialHeaders) })
    await request('/v1/pets/1', { headers: auth() })

    const recorded = await journal(request)
    const listed = recorded.find((entry) => entry['operation'] === 'listPets')
    const got = recorded.find((entry) => entry['operation'] === 'getPet')
    expect(JSON.stringify([listed, got])).not.toContain(secret)
    expect(listed!['headers']).toMatchObject({
      cookie: '[redacted]',
      'proxy-authorization': 'Basic hu…',
      'x-admin-token': '[redacted]',
      'x-api-key': '[redacted]',
      'x-auth-token': '[redacted]',
      'x-team-secret': '[redacted]',
      'x-request-note': 'kept as sent',
      authorization: 'Bearer te…',
    })
    expect(listed!['query']).toEqual({
      limit: '5',
      token: '[redacted]',
      access_token: '[redacted]',
      API_KEY: '[redacted]',
      password: '[redacted]',
      secret: '[redacted]',
      sig: '[redacted]',
      team_sig: '[redacted]',
      status: 'sold',
    })
    expect(got!['response'].headers).toMatchObject({ 'set-cookie': '[redacted]', 'x-api-key': '[redacted]' })

    const entries = await har(request)
    expect(JSON.stringify(entries)).not.toContain(secret)
    const first = entries.find((entry) => entry['request'].url.includes('/v1/pets?'))
    const second = entries.find((entry) => entry['request'].url.endsWith('/v1/pets/1'))
    expect(first!['request'].url).toMatch(/[?&]token=%5Bredacted%5D&/)
    expect(first!['request'].queryString).toContainEqual({ name: 'password', value: '[redacted]' })
    expect(first!['request'].queryString).toContainEqual({ name: 'status', value: 'sold' })
    expect(first!['request'].headers).toContainEqual({ name: 'cookie', value: '[redacted]' })
    expect(second!['response'].headers).toContainEqual({ name: 'set-cookie', value: '[redacted]' })
  })

  it('without the option, the added names are kept: the defaults only', async () => {
    const { request } = contractApp({ pets })
    await request(`/v1/pets?team_sig=${secret}&key=${secret}`, { headers: auth({ 'X-Team-Secret': secret }) })
    const [listed] = await journal(request)
    expect(listed!['query']).toEqual({ team_sig: secret, key: '[redacted]' })
    expect(listed!['headers']['x-team-secret']).toBe(secret)
  })

  it('the app refuses a blank or non-string name', () => {
    expect(() => contractApp({ redact: [''] })).toThrow('redact: entry 0 must be a non-empty name')
    expect(() => contractApp({ redact: 'token' as unknown as string[] })).toThrow(/redact must be an array/)
  })
})

describe('redactUrl', () => {
  const redaction = redactionOf(['extra'])
  it.each([
    ['/v1/pets', '/v1/pets'],
    ['/v1/pets?limit=5', '/v1/pets?limit=5'],
    ['/v1/pets?token=a&token=b', '/v1/pets?token=%5Bredacted%5D&token=%5Bredacted%5D'],
    ['/v1/pets?Token=a', '/v1/pets?Token=%5Bredacted%5D'],
    ['/v1/pets?%74oken=a#frag', '/v1/pets?%74oken=%5Bredacted%5D#frag'],
    ['/v1/pets?password', '/v1/pets?password=%5Bredacted%5D'],
    ['/v1/pets?extra=1&tokens=2', '/v1/pets?extra=%5Bredacted%5D&tokens=2'],
    ['/v1/pets?%E0%A4%A=1&key=2', '/v1/pets?%E0%A4%A=1&key=%5Bredacted%5D'],
  ])('%s → %s', (url, kept) => expect(redactUrl(url, redaction)).toBe(kept))

  it('documents its defaults in docs/reference/security.md', async () => {
    const { readFileSync } = await import('node:fs')
    const doc = readFileSync(new URL('../../../docs/reference/security.md', import.meta.url), 'utf8')
    for (const name of [...redactedHeaders, ...redactedQueryParameters]) expect(doc).toContain(`\`${name}\``)
  })
})
