import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { binPath, spawnServer, type SpawnedServer } from '../../helpers/spawn-server.js'

const example = fileURLToPath(new URL('../../../examples/tenants/tenants.yaml', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'tenants-file-'))
const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const run = (args: string[]) =>
  spawnSync(process.execPath, [binPath, '--port', '0', ...args], { encoding: 'utf8', timeout: 30_000 })

describe('--tenants FILE', () => {
  const started: SpawnedServer[] = []
  afterAll(() => Promise.all(started.map((s) => s.stop())))

  it.each([
    ['YAML', example],
    ['JSON', example.replace(/yaml$/, 'json')],
  ])("the issue's example file (%s) starts a server", async (_, path) => {
    const server = await spawnServer(['--tenants', path, '--admin-token', 'root-1', '--max-memory', '64'])
    started.push(server)
    expect((await fetch(`${server.url}/__admin/health`)).status).toBe(200)
    // The banner names each tenant, what it owns and its shares, and how keys are judged; never a secret.
    const banner = server.stderr()
    expect(banner).toContain(
      "auth:  2 tenants' key(s) and 0 of no tenant (--api-key); a key reaches only its own tenant's sessions",
    )
    expect(banner).toContain(
      'tenant team-a: sessions team-a-*; quota 2 sessions, 8 MiB state, 4 MiB journal, 2 streams, 5 held',
    )
    expect(banner).toContain('tenant team-b: sessions team-b-*')
    expect(banner).toContain(
      "memory: budget 64 MiB (--max-memory): 24 MiB reserved by the tenants' quotas; for the sessions of no tenant 10 MiB for the journal, 30 MiB for pets, rules and sessions (507 beyond)",
    )
    for (const secret of ['key-a-1', 'key-b-1', 'adm-a-1', 'ro-a-1', 'adm-b-1', 'met-b-1']) {
      expect(banner).not.toContain(secret)
    }
  })

  it('PETSTORE_MOCK_TENANTS names the file too', async () => {
    const server = await spawnServer(['--admin-token', 'root-1', '--max-memory', '64'], {
      PETSTORE_MOCK_TENANTS: example,
    })
    started.push(server)
    expect((await fetch(`${server.url}/__admin/health`)).status).toBe(200)
  })

  const overlap = file(
    'overlap.yaml',
    `tenants:
  - { name: a, sessions: ["team-*"], quota: { sessions: 1, memoryMiB: 1, journalMiB: 1, streams: 1, held: 1 } }
  - { name: b, sessions: ["team-b-*"], quota: { sessions: 1, memoryMiB: 1, journalMiB: 1, streams: 1, held: 1 } }
`,
  )
  it.each([
    [
      'overlapping session patterns',
      [overlap],
      `--tenants ${overlap}: tenants[1].sessions[0]: "team-b-*" overlaps tenants[0].sessions[0] "team-*": a session has one tenant`,
    ],
    [
      'a secret used twice (with --admin-token)',
      [example, '--admin-token', 'adm-a-1', '--max-memory', '64'],
      `--tenants ${example}: tenants[0].adminTokens[0].secret: this secret is also used by a --api-key or --admin-token; every secret must be used once`,
    ],
    [
      'quotas beyond the memory budget',
      [example, '--max-memory', '16'],
      `--tenants ${example}: the tenants' quota.memoryMiB and quota.journalMiB add up to 24 MiB, more than the memory budget of 16.00 MiB (--max-memory)`,
    ],
    [
      'quotas beyond --max-sessions',
      [example, '--max-sessions', '6', '--max-memory', '64'],
      `--tenants ${example}: the tenants' quota.sessions add up to 7, more than 6 (--max-sessions)`,
    ],
    ['a file that is not there', [join(dir, 'none.yaml')], `--tenants ${join(dir, 'none.yaml')}: cannot read:`],
  ])('%s: exit 2 and one line naming the entry and field', (_, args, message) => {
    const [path, ...rest] = args
    const result = run(['--tenants', path!, ...rest])
    expect(result.status).toBe(2)
    const lines = result.stderr.trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`petstore-mock: ${message}`)
  })
})
