import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkTenants } from '../../../src/core/tenants/check-tenants.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'
import { auth, contractApp } from '../../helpers/contract.js'

// select-session.ts keeps the last (Authorization, session) pair its tenant check let through, and
// lets the same pair through again without reading the key: a pass must never outlive its pair.
// Each row follows a pass of key-a-1 to team-a-1, so a stale verdict would answer 200 where the
// check in full answers 403.
const tenants = checkTenants(
  JSON.parse(readFileSync(new URL('../../../examples/tenants/tenants.json', import.meta.url), 'utf8')),
) as Tenant[]

describe('with tenants: the owner check after a pass of the same client', () => {
  it.each([
    ['another tenant’s key, the same session', 'key-b-1', '/sessions/team-a-1/v1/pets/1', {}],
    ['the same key, another tenant’s session', 'key-a-1', '/sessions/team-b-1/v1/pets/1', {}],
    ['the same key, another tenant’s session by header', 'key-a-1', '/v1/pets/1', { 'X-Mock-Session': 'team-b-1' }],
    ['the same key, the default session', 'key-a-1', '/v1/pets/1', {}],
    ['a key of no tenant, the same session', 'key-x', '/sessions/team-a-1/v1/pets/1', {}],
  ])('%s: 403, then the passed pair passes again', async (_, key, url, headers) => {
    const { request } = contractApp({ tenants, apiKeys: ['key-x'], adminToken: 'root' })
    const own = () => request('/sessions/team-a-1/v1/pets/1', { headers: auth({}, 'key-a-1') })
    expect((await own()).status).toBe(200)
    const res = await request(url, { headers: auth(headers, key) })
    expect(res.status).toBe(403)
    expect(((await res.json()) as { code: string }).code).toBe('session_forbidden')
    expect((await own()).status).toBe(200)
    // Refused twice in a row: a refusal is never remembered as a pass.
    expect((await request(url, { headers: auth(headers, key) })).status).toBe(403)
  })

  it('two apps with different tenants in one process: a pass in one is not a pass in the other', async () => {
    const withTenants = contractApp({ tenants, apiKeys: ['key-x'], adminToken: 'root' })
    const onlyB = contractApp({
      tenants: tenants.filter((t) => t.name === 'team-b'),
      apiKeys: ['key-a-1'],
      adminToken: 'root',
    })
    const url = '/sessions/team-b-1/v1/pets/1'
    expect((await withTenants.request(url, { headers: auth({}, 'key-b-1') })).status).toBe(200)
    // key-a-1 is a key of no tenant in the second app: team-b's session is not its to reach.
    expect((await onlyB.request(url, { headers: auth({}, 'key-a-1') })).status).toBe(403)
    expect((await onlyB.request(url, { headers: auth({}, 'key-b-1') })).status).toBe(200)
  })
})
