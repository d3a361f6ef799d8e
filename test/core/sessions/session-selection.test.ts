import { describe, expect, it } from 'vitest'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { sha256Hex } from '../../../src/core/http/request/key-fingerprint.js'

// Issue 28: a service under test chooses its session by its base URL alone, or by its API key.
const pets = [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' as const }]
const json = async (res: Response | Promise<Response>) => (await res).json()

describe('a session by path prefix: /sessions/<name>/…', () => {
  it('is that session’s /v1, answered exactly as with X-Mock-Session; Location keeps the prefix', async () => {
    const { request } = contractApp({ pets })
    const created = await request('/sessions/job-42/v1/pets', postJson({ name: 'Bo', categoryId: 2 }))
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe('/sessions/job-42/v1/pets/2')
    expect(created.headers.get('x-mock-session-created')).toBe('true')
    // The Location followed stays in the session.
    expect(await json(request(created.headers.get('location')!, { headers: auth() }))).toMatchObject({ name: 'Bo' })
    const prefixed = await request('/sessions/job-42/v1/pets?limit=10', { headers: auth() })
    const header = await request('/v1/pets?limit=10', { headers: auth({ 'X-Mock-Session': 'job-42' }) })
    expect(prefixed.status).toBe(200)
    expect(prefixed.headers.get('x-mock-session-created')).toBeNull()
    expect(await prefixed.text()).toBe(await header.text())
    // The default session never saw it.
    expect(await json(request('/v1/pets?limit=10', { headers: auth() }))).toEqual(pets)
  })

  it('works for /__admin, the journal and the panel’s redirect', async () => {
    const { request } = contractApp({ pets })
    await request('/sessions/job-7/v1/pets/1', { headers: auth() })
    const journal = await json(request('/sessions/job-7/__admin/requests'))
    expect(journal.requests.map((r: { path: string }) => r.path)).toEqual(['/v1/pets/1'])
    expect((await json(request('/__admin/requests'))).requests).toEqual([])
    const rule = await request(
      '/sessions/job-7/__admin/faults',
      postJson({ operation: 'listPets', status: 503 }, { Authorization: '' }),
    )
    expect(rule.status).toBe(201)
    expect((await request('/sessions/job-7/v1/pets', { headers: auth() })).status).toBe(503)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(200)
    const redirect = await request('/sessions/job-7/__admin')
    expect(redirect.status).toBe(308)
    expect(redirect.headers.get('location')).toBe('/sessions/job-7/__admin/')
  })

  it('serves the contract with the session’s base as its only server', async () => {
    const { request } = contractApp()
    const doc = await json(request('/sessions/job-9/openapi.json'))
    expect(doc.servers).toEqual([{ url: '/sessions/job-9/v1', description: 'This mock, session job-9' }])
    const yaml = await (await request('/sessions/job-9/openapi.yaml')).text()
    expect(yaml).toContain('servers:\n  - url: "/sessions/job-9/v1"\n')
    expect(yaml).not.toContain('petstore.example.com/v1')
    expect(yaml).toContain('paths:')
    // Without a prefix, the document as it is.
    expect((await json(request('/openapi.json'))).servers[0].url).toBe('https://petstore.example.com/v1')
  })

  it('answers 400 session_conflict naming both when the prefix and the header disagree; agreeing is fine', async () => {
    const { request } = contractApp()
    const res = await request('/sessions/a/v1/pets', { headers: auth({ 'X-Mock-Session': 'b' }) })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.code).toBe('session_conflict')
    expect(body.message).toContain('/sessions/a')
    expect(body.message).toContain('X-Mock-Session: b')
    expect((await request('/sessions/a/v1/pets', { headers: auth({ 'X-Mock-Session': 'a' }) })).status).toBe(200)
  })

  it('answers 400 for a name no session may have', async () => {
    const { request } = contractApp()
    const res = await request('/sessions/a%20b/v1/pets', { headers: auth() })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toContain('must be 1 to 64 of A-Z a-z 0-9 . _ -, not . or ..')
  })
})

describe('the journal names the API key by its fingerprint', () => {
  it('sha256: and 12 hex digits, the same for the same key, different for another', async () => {
    const { request } = contractApp()
    await request('/v1/pets/1', { headers: auth({}, 'ci-key') })
    await request('/v1/pets/1', { headers: auth({}, 'qa-key') })
    const { requests } = await json(request('/__admin/requests'))
    expect(requests.map((r: { apiKeyFingerprint: string }) => r.apiKeyFingerprint)).toEqual([
      `sha256:${sha256Hex('qa-key').slice(0, 12)}`,
      `sha256:${sha256Hex('ci-key').slice(0, 12)}`,
    ])
  })
})
