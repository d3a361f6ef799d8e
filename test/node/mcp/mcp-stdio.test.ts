import { spawnSync } from 'node:child_process'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callTool, walkAgentSession } from '../../helpers/mcp-walk.js'
import { binPath, spawnServer, type SpawnedServer } from '../../helpers/spawn-server.js'

// Issue 42: `petstore-mock mcp --url URL`, the stdio bridge, spawned by the SDK's StdioClientTransport.
const root = 'root-secret'
let server: SpawnedServer
const clients: Client[] = []

const bridge = async (...args: string[]): Promise<Client> => {
  const client = new Client({ name: 'petstore-mock-stdio-test', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [binPath, 'mcp', '--url', server.url, ...args],
      env: { PATH: process.env['PATH'] ?? '' },
      stderr: 'pipe',
    }),
  )
  clients.push(client)
  return client
}

beforeAll(async () => {
  server = await spawnServer(['--admin-token', root, '--admin-token', 'team-a-secret=team-a-*'])
}, 60_000)

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await server?.stop()
})

describe('petstore-mock mcp: the stdio bridge (issue 42)', () => {
  it('walks the scripted agent session: steps 1 to 8', async () => {
    await walkAgentSession(await bridge('--token', root), '-stdio')
  }, 60_000)

  it('takes the token from PETSTORE_MOCK_ADMIN_TOKEN, and keeps its scope', async () => {
    const client = new Client({ name: 't', version: '1' })
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [binPath, 'mcp', '--url', server.url],
        env: { PATH: process.env['PATH'] ?? '', PETSTORE_MOCK_ADMIN_TOKEN: 'team-a-secret' },
        stderr: 'pipe',
      }),
    )
    clients.push(client)
    const refused = await callTool(client, 'state_get', { session: 'team-b-1' })
    expect(refused).toMatchObject({ isError: true, structured: { code: 'forbidden', status: 403 } })
    expect(refused.structured['message']).toContain('team-a-*')
  })

  it('with --session, a call that names no session works on it, and tools list session as optional', async () => {
    const client = await bridge('--token', root, '--session', 'bridge-1')
    const { tools } = await client.listTools()
    const listPets = tools.find((t) => t.name === 'listPets')!
    expect(listPets.inputSchema.required ?? []).not.toContain('session')
    const listed = await callTool(client, 'listPets', { limit: 2 })
    expect(listed.structured).toMatchObject({ status: 200, body: [{ id: 1 }, { id: 2 }] })
    const journal = await callTool(client, 'journal_read', {})
    expect(journal.structured['requests']).toHaveLength(1)
  })

  it('refuses bad usage with exit code 2 and its help', () => {
    const badSessions = ['no spaces', '..'].map((name) => ['--url', server.url, '--session', name])
    for (const args of [[], ['--url', 'not-a-url'], ...badSessions]) {
      const result = spawnSync(process.execPath, [binPath, 'mcp', ...args], { encoding: 'utf8', timeout: 30_000 })
      expect(result.status).toBe(2)
      expect(result.stderr).toMatch(/^petstore-mock mcp: /)
      expect(result.stderr).toContain('Usage: petstore-mock mcp --url URL')
    }
  })
})
