import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { expect } from 'vitest'

/** A tool's answer as the walk reads it. */
export interface ToolAnswer {
  isError: boolean
  structured: Record<string, any>
}

/** Calls a tool through the SDK's client. */
export const callTool = async (client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> => {
  const result = await client.callTool({ name, arguments: args })
  return { isError: result.isError === true, structured: (result.structuredContent ?? {}) as Record<string, any> }
}

const mobile = 'mobile-key'
const web = 'web-key'
const newPet = { name: 'Rex', categoryId: 1 }

/**
 * The scripted agent session of issue 42's "Done when", steps 1 to 8, through any MCP client (Streamable
 * HTTP or the stdio bridge): every answer checked, in order.
 */
export const walkAgentSession = async (client: Client, suffix = ''): Promise<void> => {
  const first = `mcp-1${suffix}`
  const second = `mcp-2${suffix}`
  // 1. create mcp-1
  const created = await callTool(client, 'session_create', { session: first })
  expect(created).toMatchObject({ isError: false, structured: { name: first, pets: 12, faults: 0 } })
  // 2. createPet answers 503 for the API key mobile-key only
  const rule = await callTool(client, 'rule_set', {
    session: first,
    name: 'mobile-outage',
    rule: { operation: 'createPet', status: 503, when: { apiKey: mobile } },
  })
  expect(rule).toMatchObject({
    isError: false,
    structured: { name: 'mobile-outage', status: 503, operation: 'createPet' },
  })
  // 3. as mobile-key and as web-key: 503 and 201, answered as /v1 does
  const refused = await callTool(client, 'createPet', { session: first, apiKey: mobile, body: newPet })
  expect(refused.isError).toBe(false)
  expect(refused.structured).toMatchObject({
    status: 503,
    headers: { 'content-type': 'application/json' },
    body: { code: 'service_unavailable', status: 503 },
  })
  const made = await callTool(client, 'createPet', { session: first, apiKey: web, body: newPet })
  expect(made.structured).toMatchObject({
    status: 201,
    headers: { location: `/sessions/${first}/v1/pets/13` },
    body: { id: 13, ...newPet },
  })
  // 4. the journal has both, newest first
  const journal = await callTool(client, 'journal_read', { session: first, operation: 'createPet' })
  expect(journal.isError).toBe(false)
  const entries = journal.structured['requests'] as { id: number; status: number }[]
  expect(entries.map((e) => e.status)).toEqual([201, 503])
  // 5. explain_request on the 503 names the rule
  const explained = await callTool(client, 'explain_request', { session: first, id: entries[1]!.id })
  expect(explained.isError).toBe(false)
  expect(explained.structured).toMatchObject({ status: 503, stage: 'mock controls', rule: { name: 'mobile-outage' } })
  expect(explained.structured['because']).toContain('mobile-outage')
  expect(explained.structured['change'][0]).toContain('rule_delete')
  // and on the 201: no control shaped it
  const plain = await callTool(client, 'explain_request', { session: first, id: entries[0]!.id })
  expect(plain.structured).toMatchObject({ status: 201, stage: 'handler' })
  // 6. coverage counts both answers of createPet
  const coverage = await callTool(client, 'coverage_read', { session: first })
  expect(coverage.isError).toBe(false)
  expect(JSON.stringify(coverage.structured)).toContain('createPet')
  // 7. bundle_export, session_delete, bundle_load into mcp-2
  const bundle = await callTool(client, 'bundle_export', { session: first })
  expect(bundle.isError).toBe(false)
  expect(bundle.structured['faults']).toEqual([expect.objectContaining({ name: 'mobile-outage' })])
  expect(await callTool(client, 'session_delete', { session: first })).toMatchObject({ isError: false })
  const gone = await callTool(client, 'state_get', { session: first })
  expect(gone.isError).toBe(true)
  expect(gone.structured['status']).toBeGreaterThanOrEqual(404)
  const loaded = await callTool(client, 'bundle_load', { session: second, bundle: bundle.structured })
  expect(loaded.isError).toBe(false)
  // 8. the same 503 reproduces, and only for mobile-key
  const again = await callTool(client, 'createPet', { session: second, apiKey: mobile, body: newPet })
  expect(again.structured).toMatchObject({ status: 503, body: { code: 'service_unavailable' } })
  const webAgain = await callTool(client, 'createPet', { session: second, apiKey: web, body: newPet })
  expect(webAgain.structured).toMatchObject({ status: 201, body: { id: 14 } })
}
