// BENCH_ONLY=mcp (bench.ts): the time of the first MCP call on a fresh server, the MCP SDK loaded by it
// (issue 42), beside the next one and a plain admin read of the same server. Each on a fresh process, the
// image's CMD (server-process.ts), BENCH_COLD_RUNS times; medians. Reports; never fails.
import { startServer } from './server-process.js'

const token = 'bench-admin'
const body = (id: number, method: string, params: object) => JSON.stringify({ jsonrpc: '2.0', id, method, params })
const headers = {
  Authorization: `Bearer ${token}`,
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': '2025-11-25',
}
const initialize = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'bench', version: '1' },
}

const timed = async (url: string, init: RequestInit): Promise<number> => {
  const started = performance.now()
  const response = await fetch(url, init)
  await response.text()
  if (!response.ok) throw new Error(`${init.method} ${url} answered ${response.status}`)
  return performance.now() - started
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** The medians, in ms: the first MCP call (initialize), the second (tools/list), a first tools/call, and an admin read. */
export const mcpFirstCall = async (runs: number) => {
  const samples = { first: [] as number[], second: [] as number[], call: [] as number[], admin: [] as number[] }
  for (let i = 0; i < runs; i++) {
    const server = await startServer(['--log', 'silent', '--admin-token', token])
    try {
      const mcp = `${server.url}/__admin/mcp`
      // The control plane's own first load (the admin host), apart from MCP's.
      samples.admin.push(await timed(`${server.url}/__admin/sessions`, { method: 'GET', headers }))
      samples.first.push(await timed(mcp, { method: 'POST', headers, body: body(1, 'initialize', initialize) }))
      samples.second.push(await timed(mcp, { method: 'POST', headers, body: body(2, 'tools/list', {}) }))
      samples.call.push(
        await timed(mcp, {
          method: 'POST',
          headers,
          body: body(3, 'tools/call', { name: 'listPets', arguments: { session: 'bench', limit: 5 } }),
        }),
      )
    } finally {
      await server.stop()
    }
  }
  return {
    firstMs: median(samples.first),
    secondMs: median(samples.second),
    callMs: median(samples.call),
    adminFirstMs: median(samples.admin),
    range: [Math.min(...samples.first), Math.max(...samples.first)],
  }
}
