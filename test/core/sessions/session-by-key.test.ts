import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { keyFingerprint, sha256Hex } from '../../../src/core/http/request/key-fingerprint.js'
import { keySessionName } from '../../../src/core/sessions/session-by-key.js'
import { checkTenants } from '../../../src/core/tenants/check-tenants.js'
import { globMatches } from '../../../src/core/tenants/session-glob.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'
import { bearer } from '../../helpers/auth.js'

// Issue 28: a service under test that already sends its own API key chooses its session by it.
// Issue 39: the session's name is derived from the key and never shows it; presenting the name (or any
// other string) as a key reaches another session; with tenants the name lies inside the key's tenant.
// Not in the `prefix` projects (vitest.config.ts): there every request names a session by its path,
// which the key would contradict.
const pets = [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' as const }]
const json = async (res: Response | Promise<Response>) => (await res).json()
const tenants = checkTenants(
  JSON.parse(readFileSync(new URL('../../../examples/tenants/tenants.json', import.meta.url), 'utf8')),
) as Tenant[]
const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e'

type Request = ReturnType<typeof contractApp>['request']
const names = async (request: Request, headers: Record<string, string> = {}): Promise<string[]> =>
  (await json(request('/__admin/sessions', { headers }))).sessions.map((s: { name: string }) => s.name).sort()
const count = async (request: Request, key: string): Promise<number> =>
  (await json(request('/v1/pets?limit=100', { headers: auth({}, key) }))).length

describe('--session-by-key: the API key selects the session', () => {
  it('each key its own session, named key-<hex> and never the key', async () => {
    const { request } = contractApp({ pets, sessionByKey: true })
    await request('/v1/pets', postJson({ name: 'Ci', categoryId: 1 }, bearer('ci-key')))
    expect(await count(request, 'ci-key')).toBe(2)
    expect(await count(request, 'other-key')).toBe(1)
    await request('/v1/pets/1', { headers: auth({}, 'a/b+c==') })
    await request('/v1/pets/1', { headers: auth({}, uuid) })
    const listed = await names(request)
    expect(listed).toEqual(
      ['default', ...['ci-key', 'other-key', 'a/b+c==', uuid].map((key) => keySessionName(key)!)].sort(),
    )
    for (const name of listed.filter((n) => n !== 'default')) expect(name).toMatch(/^key-[0-9a-f]{16}$/)
    // Not the key, not the journal's fingerprint, nor the old name (the key's plain SHA-256).
    expect(listed).not.toContain(uuid)
    expect(listed.join()).not.toContain(keyFingerprint('ci-key').slice('sha256:'.length))
    expect(listed).not.toContain(`key-${sha256Hex('a/b+c==').slice(0, 16)}`)
    // The journal of the key's session names the key by its fingerprint, never the key.
    const journal = await json(
      request('/__admin/requests', { headers: { 'X-Mock-Session': keySessionName('ci-key')! } }),
    )
    expect(journal.requests[0].apiKeyFingerprint).toBe(keyFingerprint('ci-key'))
    expect(JSON.stringify(journal)).not.toContain('ci-key"')
  })

  it('a key that is a session name (a UUID) does not name its session: the UUID names another', async () => {
    const { request } = contractApp({ pets, sessionByKey: true })
    await request('/v1/pets', postJson({ name: 'Mine', categoryId: 1 }, bearer(uuid)))
    expect(await count(request, uuid)).toBe(2)
    // No session is named by the UUID: the key's session is another.
    expect((await request('/__admin/state', { headers: { 'X-Mock-Session': uuid } })).status).toBe(404)
    const session = await json(request('/__admin/state', { headers: { 'X-Mock-Session': keySessionName(uuid)! } }))
    expect(session.pets).toHaveLength(2)
    expect(await names(request)).not.toContain(uuid)
  })

  it('the session’s name, or the old fingerprint name, presented as a key reaches another session', async () => {
    const { request } = contractApp({ pets, sessionByKey: true })
    await request('/v1/pets', postJson({ name: 'Secret', categoryId: 1 }, bearer('team-key')))
    expect(await count(request, 'team-key')).toBe(2)
    const derived = keySessionName('team-key')!
    for (const guess of [derived, `key-${sha256Hex('team-key').slice(0, 16)}`, keyFingerprint('team-key').slice(7)]) {
      expect(await count(request, guess)).toBe(1)
    }
    expect(keySessionName(derived)).not.toBe(derived)
  })

  it('a prefix naming another session than the key conflicts (400 naming both, never the key)', async () => {
    const { request } = contractApp({ sessionByKey: true })
    const res = await request('/sessions/job-1/v1/pets', { headers: auth({}, uuid) })
    expect(res.status).toBe(400)
    const { message } = await res.json()
    expect(message).toContain(`path prefix /sessions/job-1 and the API key (session ${keySessionName(uuid)}`)
    expect(message).not.toContain(uuid)
    expect((await request(`/sessions/${keySessionName(uuid)}/v1/pets`, { headers: auth({}, uuid) })).status).toBe(200)
  })

  it('the Pact file’s metadata names the derived session, never the key', async () => {
    const { request } = contractApp({ pets, sessionByKey: true })
    await request('/v1/pets', { headers: auth({}, uuid) })
    const pact = await request(`/__admin/pact?consumer=shop`, { headers: { 'X-Mock-Session': keySessionName(uuid)! } })
    expect(pact.status).toBe(200)
    const text = await pact.text()
    expect(text).toContain(keySessionName(uuid)!)
    expect(text).not.toContain(uuid)
  })
})

describe('--session-by-key with tenants: the key’s session lies inside its tenant', () => {
  it('derives a name one of the tenant’s globs matches', () => {
    const [teamA, teamB] = tenants as [Tenant, Tenant]
    const a = keySessionName('key-a-1', teamA)!
    expect(a).toMatch(/^team-a-key-[0-9a-f]{16}$/)
    expect(globMatches('team-a-*', a)).toBe(true)
    expect(keySessionName('key-a-1')).toBe(a.slice('team-a-'.length))
    const other = { ...teamB, sessions: ['ci-?-*-x*'] }
    const name = keySessionName('k', other)!
    expect(name).toMatch(/^ci-0-key-[0-9a-f]{16}-x$/)
    expect(globMatches('ci-?-*-x*', name)).toBe(true)
    // A glob with no `*` cannot hold a key's session; the next one can.
    expect(keySessionName('k', { ...teamB, sessions: ['fixed', 'b-*'] })).toMatch(/^b-key-/)
    expect(keySessionName('k', { ...teamB, sessions: ['fixed'] })).toBeUndefined()
  })

  it('each tenant key reaches its own session in its tenant; another tenant’s key cannot name it', async () => {
    const { request } = contractApp({ pets, tenants, sessionByKey: true, adminToken: 'root' })
    const created = await request('/v1/pets', postJson({ name: 'A', categoryId: 1 }, bearer('key-a-1')))
    expect(created.status).toBe(201)
    expect(created.headers.get('x-mock-session-created')).toBe('true')
    const a = keySessionName('key-a-1', tenants[0])!
    expect(await names(request, bearer('root'))).toEqual(['default', a])
    // team-b's key naming team-a's session by prefix: a conflict with its own key's session (400), no reach.
    const res = await request(`/sessions/${a}/v1/pets`, { headers: auth({}, 'key-b-1') })
    expect(res.status).toBe(400)
    expect(await count(request, 'key-b-1')).toBe(1)
    expect(await count(request, 'key-a-1')).toBe(2)
  })
})
