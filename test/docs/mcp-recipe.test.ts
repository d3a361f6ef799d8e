import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binPath, spawnServer, type SpawnedServer } from '../helpers/spawn-server.js'
import { recipeCommands, recipeFiles } from './recipe-files.js'

// docs/recipes/mcp.md (issue 42): each client's snippet parses, and connects to a running mock as it says.
const page = 'docs/recipes/mcp.md'
const token = 'dev-admin'
const documented = 'http://127.0.0.1:4010'
let server: SpawnedServer
const clients: Client[] = []

/** The words of a shell command line, quotes removed (no expansion). */
const words = (line: string): string[] =>
  [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(([, single, double, bare]) => single ?? double ?? bare!)

/** The page's URL, on the running mock's port instead of 4010. */
const onServer = (url: string): URL => {
  expect(url.startsWith(documented)).toBe(true)
  return new URL(`${server.url}${url.slice(documented.length)}`)
}

const overHttp = async (url: string, headers: Record<string, string>): Promise<Client> => {
  const client = new Client({ name: 'recipe', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(onServer(url), { requestInit: { headers } }))
  clients.push(client)
  return client
}

const toolCount = async (client: Client) => (await client.listTools()).tools.length

beforeAll(async () => {
  // As the page's command starts it.
  const start = recipeCommands(page).find((line) => line.includes('npx petstore-mock'))!
  expect(start).toBe(`PETSTORE_MOCK_ADMIN_TOKEN=${token} npx petstore-mock`)
  server = await spawnServer(['--log', 'silent'], { PETSTORE_MOCK_ADMIN_TOKEN: token })
}, 60_000)

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await server?.stop()
})

describe(page, () => {
  it('installs the SDK beside petstore-mock', () => {
    expect(recipeCommands(page)).toContain('npm install --save-dev petstore-mock @modelcontextprotocol/sdk')
  })

  it('Claude Code: claude mcp add --transport http NAME URL --header …', async () => {
    const line = recipeCommands(page).find((l) => l.startsWith('claude mcp add'))!
    const [, , , transportFlag, transport, name, url, headerFlag, header, ...rest] = words(line)
    expect([transportFlag, transport, name, headerFlag, rest]).toEqual([
      '--transport',
      'http',
      'petstore-mock',
      '--header',
      [],
    ])
    const [headerName, value] = header!.split(/:\s*/)
    expect(await toolCount(await overHttp(url!, { [headerName!]: value! }))).toBe(27)
  })

  it('the MCP Inspector: the page runs the CLI as .ci/mcp-inspector does, the same version and flags', () => {
    const line = recipeCommands(page).find((l) => l.includes('@modelcontextprotocol/inspector'))!
    const pinned = /^inspector=(\S+)$/m.exec(readFileSync('.ci/mcp-inspector', 'utf8'))![1]
    expect(words(line)).toEqual([
      'npx',
      '-y',
      pinned,
      '--cli',
      `${documented}/__admin/mcp`,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${token}`,
      '--method',
      'tools/list',
    ])
  })

  it('Cursor: .cursor/mcp.json, its ${env:…} read from the environment', async () => {
    const file = recipeFiles(page).find((f) => f.path === '.cursor/mcp.json')!
    const { url, headers } = JSON.parse(file.text).mcpServers['petstore-mock']
    const env: Record<string, string> = { PETSTORE_MOCK_ADMIN_TOKEN: token }
    const expanded = Object.fromEntries(
      Object.entries(headers as Record<string, string>).map(([k, v]) => [
        k,
        v.replace(/\$\{env:(\w+)\}/g, (_, name: string) => env[name]!),
      ]),
    )
    expect(await toolCount(await overHttp(url, expanded))).toBe(27)
  })

  it('VS Code: .vscode/mcp.json, an http server whose ${input:…} is one of its inputs', async () => {
    const file = recipeFiles(page).find((f) => f.path === '.vscode/mcp.json')!
    const config = JSON.parse(file.text)
    const entry = config.servers['petstore-mock']
    expect(entry.type).toBe('http')
    const ids = (config.inputs as { id: string; type: string; password?: boolean }[]).map((i) => i.id)
    const expanded = Object.fromEntries(
      Object.entries(entry.headers as Record<string, string>).map(([k, v]) => [
        k,
        v.replace(/\$\{input:([\w-]+)\}/g, (_, id: string) => {
          expect(ids).toContain(id)
          return token
        }),
      ]),
    )
    expect(await toolCount(await overHttp(entry.url, expanded))).toBe(27)
  })

  it('a stdio client: npx petstore-mock mcp --url …, with --session', async () => {
    const file = recipeFiles(page).find((f) => f.path === 'mcp-stdio.json')!
    const { command, args, env } = JSON.parse(file.text).mcpServers['petstore-mock']
    expect([command, args[0], args[1], args[2]]).toEqual(['npx', 'petstore-mock', 'mcp', '--url'])
    const client = new Client({ name: 'recipe-stdio', version: '1' })
    await client.connect(
      new StdioClientTransport({
        // npx petstore-mock runs the package's bin: the built one here.
        command: process.execPath,
        args: [binPath, ...args.slice(1).map((a: string) => (a === documented ? server.url : a))],
        env: { PATH: process.env['PATH'] ?? '', ...env },
        stderr: 'pipe',
      }),
    )
    clients.push(client)
    expect(await toolCount(client)).toBe(27)
    const listed = await client.callTool({ name: 'listPets', arguments: { limit: 1 } })
    expect(listed.structuredContent).toMatchObject({ status: 200, body: [{ id: 1 }] })
  })
})
