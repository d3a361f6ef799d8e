import { describe, expect, it } from 'vitest'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { keyFingerprint, sha256Hex } from '../../../src/core/http/request/key-fingerprint.js'
import { bearer } from '../../helpers/auth.js'

// Issue 28: a service under test that already sends its own API key chooses its session by it.
// Not in the `prefix` projects (vitest.config.ts): there every request names a session by its path,
// which the key would contradict.
const pets = [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' as const }]
const json = async (res: Response | Promise<Response>) => (await res).json()

describe('--session-by-key: the API key selects the session', () => {
  it('a key that is a session name selects the session of that name; any other its key- fingerprint', async () => {
    const { request } = contractApp({ pets, sessionByKey: true })
    await request('/v1/pets', postJson({ name: 'Ci', categoryId: 1 }, bearer('ci-key')))
    expect(await json(request('/v1/pets?limit=10', { headers: auth({}, 'ci-key') }))).toHaveLength(2)
    expect(await json(request('/v1/pets?limit=10', { headers: auth({}, 'other-key') }))).toHaveLength(1)
    const odd = 'a/b+c=='
    await request('/v1/pets/1', { headers: auth({}, odd) })
    const names = (await json(request('/__admin/sessions'))).sessions.map((s: { name: string }) => s.name)
    expect(names.sort()).toEqual(['ci-key', 'default', `key-${sha256Hex(odd).slice(0, 16)}`, 'other-key'])
    // The journal of the key's session names the key by its fingerprint, never the key.
    const journal = await json(request('/__admin/requests', { headers: { 'X-Mock-Session': 'ci-key' } }))
    expect(journal.requests[0].apiKeyFingerprint).toBe(keyFingerprint('ci-key'))
    expect(JSON.stringify(journal)).not.toContain('ci-key"')
  })

  it('a prefix naming another session than the key conflicts (400 naming both)', async () => {
    const { request } = contractApp({ sessionByKey: true })
    const res = await request('/sessions/job-1/v1/pets', { headers: auth({}, 'ci-key') })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toMatch(/path prefix \/sessions\/job-1 and the API key \(session ci-key/)
    expect((await request('/sessions/ci-key/v1/pets', { headers: auth({}, 'ci-key') })).status).toBe(200)
  })
})
