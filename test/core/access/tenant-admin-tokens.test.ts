import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { contractApp, postJson } from '../../helpers/contract.js'
import { bearer } from '../../helpers/auth.js'
import { parseAdminToken } from '../../../src/core/access/admin-scopes.js'
import { checkTenants } from '../../../src/core/tenants/check-tenants.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'
import type { Logger } from '../../../src/core/log/log.js'

// Issue 39: the tenants' admin tokens on the control plane (examples/tenants/tenants.yaml, as the issue
// starts it: --admin-token root-1 --max-memory 64), besides the operators' --admin-token values.
const tenants = checkTenants(
  parse(readFileSync(new URL('../../../examples/tenants/tenants.yaml', import.meta.url), 'utf8')),
) as Tenant[]

const metricsText = async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: 'up 1\n' })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const shared = (adminTokens: string[] = ['root-1'], sessionTtl?: number) => {
  const lines: string[] = []
  const logger: Logger = { warn: () => {}, error: () => {}, info: (m) => lines.push(m) }
  const app = contractApp({
    tenants,
    adminTokens,
    maxMemory: 64,
    logger,
    observe: { metrics: metricsText },
    ...(sessionTtl !== undefined && { sessionTtl }),
  })
  const as = (token: string, init: RequestInit = {}, session?: string): RequestInit => ({
    ...init,
    headers: {
      ...(init.headers as Record<string, string>),
      ...bearer(token),
      ...(session !== undefined && { 'X-Mock-Session': session }),
    },
  })
  /** Team A has team-a-1 and team-a-2, team B team-b-1..3, and `scratch` no tenant: made by root. */
  const populate = async () => {
    for (const name of ['team-a-1', 'team-a-2', 'team-b-1', 'team-b-2', 'team-b-3', 'scratch']) {
      const res = await app.request(`/__admin/sessions/${name}`, as('root-1', { method: 'POST' }))
      expect(res.status, name).toBe(201)
    }
  }
  const listed = async (token: string) => {
    const res = await app.request('/__admin/sessions', as(token))
    expect(res.status, token).toBe(200)
    const body = (await res.json()) as { sessions: { name: string }[] }
    return body.sessions.map((s) => s.name).sort()
  }
  return { ...app, as, populate, listed, lines }
}

describe('tenant admin tokens (issue 39)', () => {
  it('reads SECRET:metrics as a metrics-only token; a metrics token takes no pattern', () => {
    expect(parseAdminToken('scrape-1:metrics')).toMatchObject({ secret: 'scrape-1', access: 'metrics' })
    expect(parseAdminToken('abc==:metrics')).toMatchObject({ secret: 'abc==', access: 'metrics' })
    expect(parseAdminToken('scrape-1=team-*:metrics')).toMatch(/a metrics token takes no =PATTERN/)
    expect(parseAdminToken('ta=team-a-*:read')).toMatchObject({ secret: 'ta', patterns: ['team-a-*'], access: 'read' })
  })

  it("a tenant's token lists its own sessions only; root lists every one", async () => {
    const { populate, listed } = shared()
    await populate()
    expect(await listed('adm-a-1')).toEqual(['team-a-1', 'team-a-2'])
    expect(await listed('ro-a-1')).toEqual(['team-a-1', 'team-a-2'])
    expect(await listed('adm-b-1')).toEqual(['team-b-1', 'team-b-2', 'team-b-3'])
    expect(await listed('root-1')).toEqual(
      expect.arrayContaining(['scratch', 'team-a-1', 'team-a-2', 'team-b-1', 'team-b-2', 'team-b-3']),
    )
  })

  it('lists its own expired sessions only (the tombstones of its scope)', async () => {
    const { request, as } = shared(['root-1'], 1)
    for (const name of ['team-a-1', 'team-b-1', 'scratch'])
      expect((await request(`/__admin/sessions/${name}`, as('root-1', { method: 'POST' }))).status).toBe(201)
    await sleep(2100)
    for (const name of ['team-a-1', 'team-b-1', 'scratch'])
      expect((await request('/__admin/requests', as('root-1', {}, name))).status, name).toBe(410)
    const expired = async (token: string) => {
      const res = await request('/__admin/sessions', as(token))
      expect(res.status).toBe(200)
      return ((await res.json()) as { expired: { name: string }[] }).expired.map((t) => t.name).sort()
    }
    expect(await expired('adm-a-1')).toEqual(['team-a-1'])
    expect(await expired('adm-b-1')).toEqual(['team-b-1'])
    expect(await expired('root-1')).toEqual(['scratch', 'team-a-1', 'team-b-1'])
  })

  it("with no --admin-token, the tenants' tokens still close the control plane", async () => {
    const { request, as } = shared([])
    expect((await request('/__admin/requests')).status).toBe(401)
    expect((await request('/__admin/sessions')).status).toBe(401)
    expect((await request('/__admin/faults', as('adm-a-1', postJson({ status: 503 }), 'team-a-1'))).status).toBe(201)
    expect((await request('/__admin/requests', as('adm-a-1'))).status).toBe(403)
    const health = (await (await request('/__admin/health')).json()) as { admin?: string }
    expect(health.admin).toBeUndefined()
  })

  it('a pattern-scoped --admin-token lists the sessions its pattern covers', async () => {
    const { populate, listed } = shared(['root-1', 'ops-b=team-b-?', 'qa=*:read'])
    await populate()
    expect(await listed('ops-b')).toEqual(['team-b-1', 'team-b-2', 'team-b-3'])
    expect(await listed('qa')).toEqual(
      expect.arrayContaining(['scratch', 'team-a-1', 'team-a-2', 'team-b-1', 'team-b-2', 'team-b-3']),
    )
  })

  it("deletes its own sessions; another tenant's is 403, names nothing of it, and stays", async () => {
    const { request, as, populate, listed } = shared()
    await populate()
    expect((await request('/__admin/sessions/team-a-1', as('adm-a-1', { method: 'DELETE' }))).status).toBe(204)
    for (const name of ['team-b-1', 'team-b-9', 'scratch', 'default']) {
      const res = await request(`/__admin/sessions/${name}`, as('adm-a-1', { method: 'DELETE' }))
      expect(res.status, name).toBe(403)
      const body = (await res.json()) as { code: string; message: string }
      expect(body.code).toBe('forbidden')
      expect(body.message).toMatch(
        /^The admin token sha256:[0-9a-f]{12} of tenant team-a reaches only its own sessions \(team-a-\*\)\.$/,
      )
      expect(body.message).not.toMatch(/team-b|scratch|default/)
    }
    expect(await listed('adm-a-1')).toEqual(['team-a-2'])
    expect(await listed('adm-b-1')).toEqual(['team-b-1', 'team-b-2', 'team-b-3'])
  })

  it('reads and changes its own sessions only, by header or prefix; a read token changes nothing', async () => {
    const { request, as, populate, listed } = shared()
    await populate()
    const rule = postJson({ status: 503 })
    expect((await request('/__admin/faults', as('adm-a-1', rule, 'team-a-1'))).status).toBe(201)
    expect((await request('/sessions/team-a-2/__admin/faults', as('adm-a-1', rule))).status).toBe(201)
    expect((await request('/__admin/requests', as('adm-a-1', {}, 'team-a-1'))).status).toBe(200)
    for (const [path, session] of [
      ['/__admin/requests', 'team-b-1'],
      ['/__admin/requests', undefined],
      ['/sessions/team-b-1/__admin/state', undefined],
    ] as const) {
      const res = await request(path, as('adm-a-1', {}, session))
      expect(res.status, `${path} ${session}`).toBe(403)
      expect(await res.text()).not.toMatch(/team-b|default/)
    }
    expect((await request('/__admin/faults', as('ro-a-1', {}, 'team-a-1'))).status).toBe(200)
    // The control plane's document, read under one of its sessions' prefixes.
    expect((await request('/sessions/team-a-1/__admin/openapi.json', as('ro-a-1'))).status).toBe(200)
    const refused = await request('/__admin/sessions/team-a-2', as('ro-a-1', { method: 'DELETE' }))
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { message: string }).message).toContain('is read-only')
    expect((await request('/__admin/reset', as('ro-a-1', { method: 'POST' }, 'team-a-1'))).status).toBe(403)
    expect(await listed('adm-a-1')).toEqual(['team-a-1', 'team-a-2'])
    const faults = await request('/__admin/faults', as('root-1', {}, 'team-a-1'))
    expect(((await faults.json()) as { faults: unknown[] }).faults.length).toBe(1)
  })

  it('a metrics token reads GET /__admin/metrics and nothing else', async () => {
    const { request, as, populate } = shared(['root-1', 'scrape-1:metrics'])
    await populate()
    for (const token of ['met-b-1', 'scrape-1', 'root-1']) {
      const res = await request('/__admin/metrics', as(token))
      expect(res.status, token).toBe(200)
      expect(await res.text()).toBe('up 1\n')
    }
    const elsewhere: [string, string, string | undefined][] = [
      ['GET', '/__admin/sessions', undefined],
      ['GET', '/__admin/requests', 'team-b-1'],
      ['GET', '/__admin/requests.har', 'team-b-1'],
      ['GET', '/__admin/state', 'team-b-1'],
      ['GET', '/__admin/snapshot', undefined],
      ['POST', '/__admin/reset', 'team-b-1'],
      ['DELETE', '/__admin/sessions/team-b-1', undefined],
      ['POST', '/__admin/sessions/team-b-4', undefined],
    ]
    for (const token of ['met-b-1', 'scrape-1']) {
      for (const [method, path, session] of elsewhere) {
        const res = await request(path, as(token, { method }, session))
        expect(res.status, `${token} ${method} ${path}`).toBe(403)
        expect(((await res.json()) as { message: string }).message).toContain('reads GET /__admin/metrics only')
      }
    }
    expect((await request('/__admin/metrics', as('met-b-1', { method: 'OPTIONS' }))).status).toBe(403)
    // The panel's files and health need no token, whatever is sent.
    expect((await request('/__admin/health', as('met-b-1'))).status).toBe(200)
    const sessions = await request('/__admin/sessions', as('root-1'))
    expect(((await sessions.json()) as { sessions: { name: string }[] }).sessions.map((s) => s.name)).not.toContain(
      'team-b-4',
    )
  })

  it("a tenant's read or write token does not read the metrics (every tenant's): 403", async () => {
    const { request, as } = shared()
    for (const token of ['adm-a-1', 'ro-a-1', 'adm-b-1']) {
      const res = await request('/__admin/metrics', as(token))
      expect(res.status, token).toBe(403)
      expect(((await res.json()) as { message: string }).message).toContain(
        'the metrics needs an unscoped admin token or a metrics token',
      )
    }
  })

  it('logs the tenant in the scope, never a secret', async () => {
    const { request, as, lines } = shared()
    await request('/__admin/sessions/team-b-1', as('adm-a-1', { method: 'DELETE' }))
    expect(lines.join('\n')).toContain('scope="tenant team-a, sessions team-a-*"')
    expect(lines.join('\n')).not.toContain('adm-a-1')
  })
})
