import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callTool, walkAgentSession } from '../../helpers/mcp-walk.js'
import { spawnServer, type SpawnedServer } from '../../helpers/spawn-server.js'
import { stagingIncident } from '../../helpers/timeline-scenario.js'

// Issue 42: the SDK's own client over Streamable HTTP against the built bin on a loopback port.
const root = 'root-secret'
const teamA = 'team-a-secret'
const reader = 'reader-secret'

let server: SpawnedServer
const clients: Client[] = []

const connect = async (token: string | undefined): Promise<Client> => {
  const client = new Client({ name: 'petstore-mock-test', version: '1.0.0' })
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/__admin/mcp`), { requestInit: { headers } }),
  )
  clients.push(client)
  return client
}

beforeAll(async () => {
  server = await spawnServer([
    '--admin-token',
    root,
    '--admin-token',
    `${teamA}=team-a-*`,
    '--admin-token',
    `${reader}=*:read`,
  ])
}, 60_000)

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await server?.stop()
})

describe('/__admin/mcp over Streamable HTTP (issue 42)', () => {
  it('speaks the SDK release’s protocol version, with tools, resources and prompts', async () => {
    const client = await connect(root)
    expect(client.getServerVersion()).toMatchObject({ name: 'petstore-mock' })
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} })
    // The transport sends the negotiated version on each request: the server took the latest.
    const response = await fetch(`${server.url}/__admin/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${root}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    })
    expect(response.status).toBe(200)
    expect((await response.json()).result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION)
  })

  it('is stateless: GET and DELETE answer 405 (Allow: POST) with the Error body', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.url}/__admin/mcp`, {
        method,
        headers: { Authorization: `Bearer ${root}`, Accept: 'text/event-stream' },
      })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('POST')
      expect(await response.json()).toMatchObject({ code: 'method_not_allowed', status: 405 })
    }
  })

  it('walks the scripted agent session: steps 1 to 8', async () => {
    await walkAgentSession(await connect(root))
  }, 60_000)

  it('is behind the admin guard: no token 401, a wrong one 401, with the Error body', async () => {
    for (const authorization of [undefined, 'Bearer nope']) {
      const response = await fetch(`${server.url}/__admin/mcp`, {
        method: 'POST',
        headers: {
          ...(authorization && { Authorization: authorization }),
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ code: 'unauthorized', status: 401 })
    }
  })

  it('a team-a-* token lists only its sessions and gets a tool error naming its scope for team-b-1', async () => {
    const rootClient = await connect(root)
    for (const session of ['team-a-1', 'team-b-1']) await callTool(rootClient, 'session_create', { session })
    const client = await connect(teamA)
    const listed = await callTool(client, 'sessions_list', {})
    expect(listed.isError).toBe(false)
    const names = (listed.structured['sessions'] as { name: string }[]).map((s) => s.name)
    expect(names).toEqual(['team-a-1'])
    for (const [tool, args] of [
      ['rule_set', { session: 'team-b-1', name: 'x', rule: { operation: 'listPets', status: 500 } }],
      ['state_get', { session: 'team-b-1' }],
      ['listPets', { session: 'team-b-1' }],
    ] as const) {
      const refused = await callTool(client, tool, args)
      expect(refused.isError).toBe(true)
      expect(refused.structured).toMatchObject({ code: 'forbidden', status: 403 })
      expect(refused.structured['message']).toContain('team-a-*')
    }
    // Nothing changed in team-b-1.
    expect((await callTool(rootClient, 'rules_list', { session: 'team-b-1' })).structured['faults']).toEqual([])
    expect(await callTool(client, 'rules_list', { session: 'team-a-1' })).toMatchObject({ isError: false })
  })

  it("a read token's tool list has no writing tool; calling one anyway is refused", async () => {
    const client = await connect(reader)
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toEqual([
      'sessions_list',
      'state_get',
      'rules_list',
      'timelines_list',
      'timeline_get',
      'clock_get',
      'journal_read',
      'explain_request',
      'coverage_read',
      'pact_export',
      'bundle_export',
      'listPets',
      'getPet',
    ])
    await expect(client.callTool({ name: 'session_delete', arguments: { session: 'team-a-1' } })).rejects.toThrow(
      /read-only/,
    )
    const all = (await (await connect(root)).listTools()).tools
    expect(all.filter((t) => !names.includes(t.name)).every((t) => t.annotations?.readOnlyHint === false)).toBe(true)
  })

  it('refuses bad arguments by schema before anything changes, and route errors carry the Error body', async () => {
    const client = await connect(root)
    await callTool(client, 'session_create', { session: 'bad-args' })
    const bad = [
      ['rule_set', { session: 'bad-args', name: 'x', rule: 'not an object' }],
      ['rule_set', { session: 'bad-args', name: 'x', rule: { operation: 'listPets', status: 500 }, extra: 1 }],
      ['seed', { session: 'bad-args', count: -1 }],
      ['createPet', { session: 'bad-args', body: { name: 'Rex' }, limit: 'x' }],
      ['clock_set', { session: 'bad-args', now: 'yesterday' }],
      ['session_create', { session: 'no spaces' }],
    ] as const
    for (const [tool, args] of bad) {
      const refused = await callTool(client, tool, args)
      expect(refused, tool).toMatchObject({ isError: true, structured: { code: 'bad_request', status: 400 } })
      expect(refused.structured['message']).toMatch(/^Invalid arguments: /)
    }
    expect((await callTool(client, 'rules_list', { session: 'bad-args' })).structured['faults']).toEqual([])
    expect((await callTool(client, 'state_get', { session: 'bad-args' })).structured['pets']).toHaveLength(12)
    // The route's own refusal, as the route words it.
    const unknown = await callTool(client, 'rule_delete', { session: 'bad-args', name: 'none-such' })
    expect(unknown).toMatchObject({ isError: true, structured: { status: 404 } })
    const direct = await fetch(`${server.url}/__admin/faults/none-such`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${root}`, 'X-Mock-Session': 'bad-args' },
    })
    expect(unknown.structured).toEqual(await direct.json())
  })

  it('getPet keeps Deprecation and Sunset, as /v1 answers', async () => {
    const client = await connect(root)
    const tool = await callTool(client, 'getPet', { session: 'sunset-1', petId: 1 })
    const direct = await fetch(`${server.url}/sessions/sunset-1/v1/pets/1`, { headers: { Authorization: 'Bearer k' } })
    expect(tool.structured['status']).toBe(200)
    expect(tool.structured['headers']['deprecation']).toBe(direct.headers.get('deprecation'))
    expect(tool.structured['headers']['sunset']).toBe(direct.headers.get('sunset'))
    expect(tool.structured['body']).toEqual(await direct.json())
    const missing = await callTool(client, 'getPet', { session: 'sunset-1', petId: 999 })
    expect(missing.structured).toMatchObject({ status: 404, body: { code: 'not_found', status: 404 } })
  })

  it('clock_set sets, freezes and advances', async () => {
    const client = await connect(root)
    const set = await callTool(client, 'clock_set', { session: 'clock-1', now: '2030-12-04T00:00:00Z', frozen: true })
    expect(set.structured).toMatchObject({ now: '2030-12-04T00:00:00.000Z', frozen: true })
    const advanced = await callTool(client, 'clock_set', { session: 'clock-1', advanceMs: 2 * 86_400_000 })
    expect(advanced.structured).toMatchObject({ now: '2030-12-06T00:00:00.000Z', frozen: true })
    const sunset = await callTool(client, 'getPet', { session: 'clock-1', petId: 1 })
    expect(sunset.structured['status']).toBe(410)
  })

  it("runs the issue 43 example timeline: timeline_set on a frozen clock, clock_set's advance moves it into the 429 phase", async () => {
    const client = await connect(root)
    const session = 'timeline-1'
    await callTool(client, 'clock_set', { session, now: '2030-01-01T00:00:00Z', frozen: true })
    const set = await callTool(client, 'timeline_set', { session, name: 'staging-incident', timeline: stagingIncident })
    expect(set.isError).toBe(false)
    expect((await callTool(client, 'listPets', { session })).structured).toMatchObject({ status: 503 })
    await callTool(client, 'clock_set', { session, advanceMs: 45_000 })
    const limited = await callTool(client, 'listPets', { session })
    expect(limited.structured).toMatchObject({ status: 429 })
    expect((limited.structured['headers'] as Record<string, string>)['retry-after']).toBeDefined()
    const got = await callTool(client, 'timeline_get', { session, name: 'staging-incident' })
    expect(got.structured).toMatchObject({
      name: 'staging-incident',
      state: 'running',
      current: { phase: 1, startedAt: '2030-01-01T00:00:30.000Z' },
    })
    expect((await callTool(client, 'timelines_list', { session })).structured['timelines']).toHaveLength(1)
    expect((await callTool(client, 'timeline_delete', { session, name: 'staging-incident' })).isError).toBe(false)
    expect((await callTool(client, 'listPets', { session })).structured).toMatchObject({ status: 200 })
    const bad = await callTool(client, 'timeline_set', { session, name: 'bad', timeline: { phases: [{ for: '0s' }] } })
    expect(bad).toMatchObject({ isError: true, structured: { code: 'bad_request', status: 400 } })
  })

  it('audits every changing tool call like the admin call, marked as MCP', async () => {
    const client = await connect(root)
    await callTool(client, 'rule_set', { session: 'audit-1', name: 'a', rule: { operation: 'listPets', status: 500 } })
    await callTool(client, 'rules_list', { session: 'audit-1' })
    const lines = `${server.stdout()}\n${server.stderr()}`
      .split('\n')
      .filter((line) => line.includes('session=audit-1'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^admin PUT \/__admin\/faults\/a session=audit-1 .* via=mcp → 201$/),
        via: 'mcp',
        action: 'PUT /__admin/faults/a',
      }),
    ])
  })

  it('serves the contract, the admin document and each session’s journal and coverage as resources, and three prompts', async () => {
    const client = await connect(teamA)
    await callTool(client, 'listPets', { session: 'team-a-res' })
    const { resources } = await client.listResources()
    const uris = resources.map((r) => r.uri)
    expect(uris).toEqual(
      expect.arrayContaining([
        'petstore-mock://openapi.yaml',
        'petstore-mock://admin-openapi.json',
        'petstore-mock://sessions/team-a-res/journal',
        'petstore-mock://sessions/team-a-res/coverage',
      ]),
    )
    expect(uris.some((uri) => uri.includes('team-b'))).toBe(false)
    const contract = await client.readResource({ uri: 'petstore-mock://openapi.yaml' })
    expect(contract.contents[0]).toMatchObject({ mimeType: 'application/yaml' })
    expect(String((contract.contents[0] as { text: string }).text)).toMatch(/^openapi: 3\.0\.3/)
    const admin = await client.readResource({ uri: 'petstore-mock://admin-openapi.json' })
    expect(JSON.parse(String((admin.contents[0] as { text: string }).text))).toMatchObject({ openapi: '3.1.0' })
    const journal = await client.readResource({ uri: 'petstore-mock://sessions/team-a-res/journal' })
    expect(JSON.parse(String((journal.contents[0] as { text: string }).text)).requests).toHaveLength(1)
    await expect(client.readResource({ uri: 'petstore-mock://sessions/team-b-1/journal' })).rejects.toThrow(/team-a-\*/)
    const { prompts } = await client.listPrompts()
    expect(prompts.map((p) => p.name)).toEqual([
      'reproduce_staging_failure',
      'cover_missing_responses',
      'prepare_getpet_sunset',
    ])
    const prompt = await client.getPrompt({ name: 'prepare_getpet_sunset', arguments: { session: 'team-a-res' } })
    expect(JSON.stringify(prompt.messages)).toContain('clock_set')
  })
})
