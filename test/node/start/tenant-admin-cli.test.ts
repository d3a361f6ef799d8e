import { fileURLToPath } from 'node:url'
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binPath, spawnServer, type SpawnedServer } from '../../helpers/spawn-server.js'
import { bearer } from '../../helpers/auth.js'

// Issue 39 over real sockets: the example file, started as the issue starts it, with an
// operator's metrics-only token beside the root.
const example = fileURLToPath(new URL('../../../examples/tenants/tenants.yaml', import.meta.url))

let server: SpawnedServer
beforeAll(async () => {
  server = await spawnServer([
    '--tenants',
    example,
    '--admin-token',
    'root-1',
    '--admin-token',
    'scrape-1:metrics',
    '--max-memory',
    '64',
  ])
})
afterAll(() => server?.stop())

const call = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { ...init, headers: { ...bearer(token), ...init.headers } })

describe('tenant admin tokens from the command line', () => {
  it("team A lists and deletes its own sessions; team B's are 403 and stay; metrics tokens read the metrics only", async () => {
    for (const name of ['team-a-1', 'team-b-1', 'team-b-2'])
      expect((await call(`/__admin/sessions/${name}`, 'root-1', { method: 'POST' })).status).toBe(201)
    const names = async (token: string) =>
      ((await (await call('/__admin/sessions', token)).json()) as { sessions: { name: string }[] }).sessions
        .map((s) => s.name)
        .sort()
    expect(await names('adm-a-1')).toEqual(['team-a-1'])
    expect(await names('ro-a-1')).toEqual(['team-a-1'])
    const refused = await call('/__admin/sessions/team-b-1', 'adm-a-1', { method: 'DELETE' })
    expect(refused.status).toBe(403)
    expect(await refused.text()).not.toContain('team-b')
    expect((await call('/__admin/sessions/team-a-1', 'adm-a-1', { method: 'DELETE' })).status).toBe(204)
    expect(await names('adm-a-1')).toEqual([])
    expect(await names('adm-b-1')).toEqual(['team-b-1', 'team-b-2'])

    for (const token of ['met-b-1', 'scrape-1']) {
      const metrics = await call('/__admin/metrics', token)
      expect(metrics.status, token).toBe(200)
      expect(await metrics.text()).toContain('# TYPE')
      expect((await call('/__admin/sessions', token)).status, token).toBe(403)
      expect((await call('/sessions/team-b-1/__admin/requests', token)).status, token).toBe(403)
    }
    expect((await call('/__admin/metrics', 'adm-b-1')).status).toBe(403)
  })

  it('refuses a metrics token with a pattern at start: exit 2, one line, never the secret', () => {
    const run = spawnSync(process.execPath, [binPath, '--port', '0', '--admin-token', 'scrape-9=team-*:metrics'], {
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('a metrics token takes no =PATTERN')
    expect(run.stderr).not.toContain('scrape-9')
  })
})
