import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer } from '../../helpers/spawn-server.js'

// Issue 39 §1's reproductions as the issue ran them: the CLI on a real socket, curl's requests by fetch.
// (The contract suite test/core/access/v1-isolation.test.ts runs the same on Redis, over three replicas
// behind nginx.)

const post = (key: string | undefined, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...(key !== undefined && { Authorization: `Bearer ${key}` }) },
  body: JSON.stringify(body),
})
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` })

describe('--api-key key-a --api-key key-b --admin-token root --max-sessions 5', () => {
  let server: SpawnedServer
  beforeAll(async () => {
    server = await spawnServer([
      '--log',
      'silent',
      '--api-key',
      'key-a',
      '--api-key',
      'key-b',
      '--admin-token',
      'root',
      '--max-sessions',
      '5',
    ])
  })
  afterAll(async () => {
    await server?.stop()
  })
  const names = async () =>
    (
      (await (await fetch(`${server.url}/__admin/sessions`, { headers: bearer('root') })).json()) as {
        sessions: { name: string }[]
      }
    ).sessions
      .map((s) => s.name)
      .sort()

  it('four requests with no Authorization answer 401 401 401 401 and leave the times: 3 rule whole', async () => {
    const rule = await fetch(
      `${server.url}/sessions/victim/__admin/faults`,
      post('root', { operation: 'listPets', status: 503, times: 3 }),
    )
    expect(rule.status).toBe(201)
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${server.url}/sessions/victim/v1/pets`)).status)
    expect(statuses).toEqual([401, 401, 401, 401])
    const authed: number[] = []
    for (let i = 0; i < 4; i++)
      authed.push((await fetch(`${server.url}/sessions/victim/v1/pets`, { headers: bearer('key-b') })).status)
    expect(authed).toEqual([503, 503, 503, 200])
  })

  it('401s create no session and do not fill --max-sessions', async () => {
    for (let i = 1; i <= 5; i++) {
      const res = await fetch(`${server.url}/sessions/junk${i}/v1/pets`)
      expect(res.status).toBe(401)
      expect(res.headers.get('x-mock-session-created')).toBeNull()
    }
    expect(await names()).toEqual(['default', 'victim'])
    const res = await fetch(`${server.url}/sessions/valid-1/v1/pets`, { headers: bearer('key-a') })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-mock-session-created')).toBe('true')
  })
})

describe('--tenants examples/tenants/tenants.yaml --admin-token root-1 --max-memory 64', () => {
  let server: SpawnedServer
  beforeAll(async () => {
    server = await spawnServer([
      '--log',
      'silent',
      '--tenants',
      'examples/tenants/tenants.yaml',
      '--admin-token',
      'root-1',
      '--max-memory',
      '64',
    ])
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('team A cannot plant a pet in team B’s world: 403 session_forbidden, team B’s session untouched', async () => {
    expect((await fetch(`${server.url}/sessions/team-b-1/v1/pets`, { headers: bearer('key-b-1') })).status).toBe(200)
    const planted = await fetch(
      `${server.url}/sessions/team-b-1/v1/pets`,
      post('key-a-1', { name: 'planted', categoryId: 1 }),
    )
    expect(planted.status).toBe(403)
    expect(await planted.json()).toEqual({
      code: 'session_forbidden',
      message:
        'This API key may not reach the session this request names; a key reaches only the sessions of its own tenant.',
      status: 403,
    })
    const byHeader = await fetch(`${server.url}/v1/pets`, {
      ...post('key-a-1', { name: 'planted', categoryId: 1 }),
      headers: { ...bearer('key-a-1'), 'Content-Type': 'application/json', 'X-Mock-Session': 'team-b-1' },
    })
    expect(byHeader.status).toBe(403)
    const journal = (await (
      await fetch(`${server.url}/sessions/team-b-1/__admin/requests`, { headers: bearer('root-1') })
    ).json()) as { requests: { status: number }[] }
    expect(journal.requests.map((r) => r.status)).toEqual([200])
    const pets = (await (
      await fetch(`${server.url}/sessions/team-b-1/v1/pets?limit=100`, { headers: bearer('key-b-1') })
    ).json()) as { name: string }[]
    expect(pets.map((p) => p.name)).not.toContain('planted')
  })
})
