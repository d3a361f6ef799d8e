import { request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer } from '../../helpers/spawn-server.js'

const baselinePath = fileURLToPath(new URL('../../../tools/bench/baseline-server.mjs', import.meta.url))
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

interface Wire {
  status: number
  headers: string[]
  body: string
}

/** An answer as its bytes go on the wire: the status, each header line as sent (the date's value left out), the body. */
const wire = (url: string, method: string, path: string, body?: string): Promise<Wire> =>
  new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: 'Bearer bench-token' }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    const req = request(new URL(path, url), { method, headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => {
        const lines: string[] = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const [name, value] = [res.rawHeaders[i]!, res.rawHeaders[i + 1]!]
          if (name === 'X-Request-Id') expect(value).toMatch(uuid)
          lines.push(`${name}: ${name === 'Date' || name === 'X-Request-Id' ? '…' : value}`)
        }
        resolve({ status: res.statusCode!, headers: lines.sort(), body: text })
      })
    })
    req.on('error', reject)
    req.end(body)
  })

// The bench's second floor (`npm run bench`, "the contract's bytes"): a bare node:http server sending what
// petstore-mock sends, so that its figure says what those bytes cost a bare server, and nothing else.
describe("the bench's bare server with --contract sends petstore-mock's bytes", () => {
  let ours: SpawnedServer
  let bare: SpawnedServer
  beforeAll(async () => {
    ours = await spawnServer(['--log', 'silent'])
    bare = await spawnServer(['--contract'], {}, 30_000, [process.execPath], baselinePath)
  })
  afterAll(async () => {
    await ours?.stop('SIGKILL')
    await bare?.stop('SIGKILL')
  })

  it.each([
    ['GET', '/v1/pets?limit=20', undefined],
    ['GET', '/v1/pets/7', undefined],
    ['POST', '/v1/pets', '{"name":"Bench","categoryId":3,"status":"available"}'],
  ] as const)('%s %s', async (method, path, body) => {
    const expected = await wire(ours.url, method, path, body)
    expect(expected.status).toBe(method === 'POST' ? 201 : 200)
    expect(await wire(bare.url, method, path, body)).toEqual(expected)
  })
})
