import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer } from '../../helpers/spawn-server.js'
import { startStandIn } from '../../helpers/stand-in.js'
import { bearer } from '../../helpers/auth.js'

// The proof: the pact a suite's session exports is verified by the real Pact verifier
// (@pact-foundation/pact's Verifier, the Pact FFI inside, from npm) against a fresh mock, through
// its provider-states URL, and passes; against a stand-in that drifts, it fails and names the
// interaction. The verifier runs in a process of its own (test/helpers/pact-verifier.mjs).

const verifierScript = fileURLToPath(new URL('../../helpers/pact-verifier.mjs', import.meta.url))

/** The verifier's list of failures: from `Failures:` to `There were N pact failures`. */
const failuresOf = (output: string): string =>
  output.slice(output.indexOf('Failures:'), output.indexOf('pact failure', output.indexOf('Failures:')))

/** Runs the verifier: its exit code and what it printed. */
const verify = (pactFile: string, baseUrl: string): Promise<{ code: number; output: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [verifierScript, pactFile, baseUrl, `${baseUrl}/__admin/provider-states`],
      { timeout: 60_000, env: { PATH: process.env['PATH'], NO_COLOR: '1' } },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          // The verifier's report, without the colours it adds.
          output: `${stdout}${stderr}`.replace(/\u001b\[[0-9;]*m/g, ''),
        }),
    )
  })

let work: string
let recorder: SpawnedServer
let pactFile: string

/** The consumer's suite, against the mock, in its own session. */
const suite = async (url: string): Promise<void> => {
  const headers = { ...bearer('suite-token'), 'X-Mock-Session': 'suite' }
  const json = { ...headers, 'Content-Type': 'application/json' }
  const calls: [string, RequestInit?][] = [
    ['/v1/pets'],
    ['/v1/pets?limit=2&status=available'],
    ['/v1/pets?status=sold&limit=100'],
    ['/v1/pets?limit=0'],
    ['/v1/pets/7'],
    ['/v1/pets/8'],
    ['/v1/pets/999'],
    ['/v1/pets', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Rex', categoryId: 2 }) }],
    [
      '/v1/pets',
      { method: 'POST', headers: json, body: JSON.stringify({ name: 'Bo', categoryId: 1, status: 'sold' }) },
    ],
    ['/v1/pets', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Rex' }) }],
    // Injected: left out of the pact.
    ['/v1/pets/1', { headers: { ...headers, Prefer: 'code=404' } }],
  ]
  for (const [path, init] of calls) await fetch(`${url}${path}`, { headers, ...init })
  // Authentication first (issue 39): a request without credentials is no interaction of the session.
  await fetch(`${url}/v1/pets`, { headers: { 'X-Mock-Session': 'suite' } })
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'petstore-mock-pact-'))
  recorder = await spawnServer(['--log', 'silent'])
  await suite(recorder.url)
  const res = await fetch(`${recorder.url}/__admin/pact?consumer=web-shop`, { headers: { 'X-Mock-Session': 'suite' } })
  pactFile = join(work, 'web-shop-Pet Store.json')
  writeFileSync(pactFile, await res.text())
}, 30_000)
afterAll(async () => {
  await recorder?.stop()
  rmSync(work, { recursive: true, force: true })
})

describe('the Pact verifier on an exported pact', () => {
  it('passes against a fresh mock, every state set up through POST /__admin/provider-states', async () => {
    const fresh = await spawnServer(['--log', 'silent'])
    try {
      const { code, output } = await verify(pactFile, fresh.url)
      expect(output).toContain('Verifying a pact between web-shop and Pet Store')
      for (const description of [
        'GET /v1/pets → 200, given pets exist',
        'GET /v1/pets/7 → 200, given a pet with id 7 exists',
        'GET /v1/pets/999 → 404, given no pet with id 999',
        'POST /v1/pets with {name, categoryId} → 201',
      ]) {
        expect(output).toContain(description)
      }
      expect(output).not.toContain('without credentials')
      expect(output).not.toMatch(/Failures:/)
      expect(code, output).toBe(0)
    } finally {
      await fresh.stop()
    }
  }, 60_000)

  it('fails against a stand-in whose createPet answers 200, naming the interaction', async () => {
    const standIn = await startStandIn('wrong-status')
    try {
      const { code, output } = await verify(pactFile, standIn.url)
      expect(code).toBe(1)
      const failures = failuresOf(output)
      expect(failures).toContain('POST /v1/pets with {name, categoryId} → 201')
      expect(failures).toContain('POST /v1/pets with {name, categoryId, status} → 201')
      expect(failures).not.toContain('GET /v1/pets/7')
    } finally {
      await standIn.close()
    }
  }, 60_000)

  it('fails against a stand-in that lists pets without categoryId, naming the interactions', async () => {
    const standIn = await startStandIn('missing-field')
    try {
      const { code, output } = await verify(pactFile, standIn.url)
      expect(code).toBe(1)
      const failures = failuresOf(output)
      expect(failures).toContain('GET /v1/pets → 200, given pets exist')
      expect(failures).toContain('GET /v1/pets?limit=2&status=available → 200, given pets with status available exist')
      expect(failures).not.toContain('POST /v1/pets')
    } finally {
      await standIn.close()
    }
  }, 60_000)
})
