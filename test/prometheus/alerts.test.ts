import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { pageLinks } from '../helpers/doc-links.js'
import { ensurePrometheus, type PrometheusServer, startPrometheus } from '../helpers/prometheus-server.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'
import { type RedisServer, startRedis } from '../helpers/redis-server.js'

// Issue 41 §4: the alert rules an operator loads (deploy/prometheus/alerts.yaml) pass Debian's
// `promtool check rules`, fire as their unit tests say (`promtool test rules`), name only metrics a
// running mock exports (or Prometheus's `up` and kube-state-metrics'), and each has a runbook.
const root = fileURLToPath(new URL('../../', import.meta.url))
const rulesFile = join(root, 'deploy/prometheus/alerts.yaml')
const unitTests = join(root, 'deploy/prometheus/alerts.test.yaml')
const promtool = '/usr/bin/promtool'

interface Rule {
  alert?: string
  record?: string
  expr: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
}
const rules = (parse(readFileSync(rulesFile, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules)
const alerts = rules.filter((rule) => rule.alert !== undefined)

const run = (...args: string[]) =>
  spawnSync(promtool, args, { encoding: 'utf8', timeout: 60_000, cwd: join(root, 'deploy/prometheus') })

beforeAll(() => {
  // promtool comes with Debian's prometheus package (.ci/run installs it before this suite).
  ensurePrometheus()
  expect(existsSync(promtool), `${promtool} (Debian's prometheus package)`).toBe(true)
})

describe('deploy/prometheus/alerts.yaml', () => {
  it('passes promtool check rules', () => {
    const checked = run('check', 'rules', rulesFile)
    expect(checked.stderr).toBe('')
    expect(checked.status).toBe(0)
    expect(checked.stdout).toContain(`SUCCESS: ${rules.length} rules found`)
  })

  it('passes its unit tests: promtool test rules alerts.test.yaml', () => {
    const tested = run('test', 'rules', unitTests)
    expect(tested.stdout + tested.stderr).toContain('SUCCESS')
    expect(tested.status).toBe(0)
  })

  it('has a unit test that fires every alert, and one that fires none', () => {
    const { tests } = parse(readFileSync(unitTests, 'utf8')) as {
      tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[]
    }
    const cases = tests.flatMap((t) => t.alert_rule_test)
    for (const { alert } of alerts) {
      expect(
        cases.some((c) => c.alertname === alert && c.exp_alerts.length > 0),
        `${alert} fires`,
      ).toBe(true)
    }
    expect(cases.some((c) => c.exp_alerts.length === 0)).toBe(true)
  })

  it('its unit tests catch a broken rule (a 507 alert that watches 500s fails them)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-alerts-'))
    try {
      cpSync(unitTests, join(dir, 'alerts.test.yaml'))
      writeFileSync(join(dir, 'alerts.yaml'), readFileSync(rulesFile, 'utf8').replace('status="507"', 'status="500"'))
      const broken = spawnSync(promtool, ['test', 'rules', 'alerts.test.yaml'], {
        encoding: 'utf8',
        timeout: 60_000,
        cwd: dir,
      })
      expect(broken.status).not.toBe(0)
      expect(broken.stdout + broken.stderr).toMatch(/FAILED[\s\S]*PetstoreMockInsufficientStorage/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('gives every alert a severity, a summary and a runbook that docs/scale-out.md has', () => {
    const { anchors } = pageLinks(readFileSync(join(root, 'docs/scale-out.md'), 'utf8'))
    for (const alert of alerts) {
      expect(['warning', 'critical'], alert.alert).toContain(alert.labels?.['severity'])
      expect(alert.annotations?.['summary'], alert.alert).toBeTruthy()
      const anchor = /^docs\/scale-out\.md#(.+)$/.exec(alert.annotations?.['runbook_url'] ?? '')?.[1]
      expect(anchor, `${alert.alert}'s runbook_url`).toBeDefined()
      expect([...anchors], `${alert.alert}'s runbook`).toContain(anchor)
    }
  })

  describe('names only metrics that exist', () => {
    let redis: RedisServer
    let mock: SpawnedServer
    let exported: Set<string>

    // A replica on Redis, as the rules watch it (the store's error counter exists only there).
    beforeAll(async () => {
      redis = await startRedis()
      mock = await spawnServer(
        ['--log', 'silent', '--admin-token', 'alerts-token', '--store', redis.url, '--store-prefix', 'alerts'],
        {},
        30_000,
      )
      const text = await (
        await fetch(`${mock.url}/__admin/metrics`, { headers: { Authorization: 'Bearer alerts-token' } })
      ).text()
      exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!))
    }, 60_000)

    afterAll(async () => {
      await mock?.stop()
      await redis?.dispose()
    })

    // Not the mock's: Prometheus's own `up`, kube-state-metrics' Deployment figures, and the rules' records.
    const others = new Set(['up', 'kube_deployment_spec_replicas', 'kube_deployment_status_replicas_available'])
    const records = new Set(rules.flatMap((rule) => (rule.record ? [rule.record] : [])))
    const promql = new Set(['sum', 'max', 'by', 'rate', 'or', 'vector', 'and', 'unless', 'on'])

    it.each(rules.map((rule) => [rule.alert ?? rule.record!, rule] as const))('%s', (_, rule) => {
      // Metric names: identifiers outside strings and label matchers, not PromQL's words nor range units.
      const bare = rule.expr
        .replace(/"[^"]*"/g, '""')
        .replace(/\{[^}]*\}/g, '{}')
        .replace(/\[[^\]]*\]/g, '[]')
      const names = [...bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)]
        .map((m) => m[0])
        .filter((name) => !promql.has(name) && !/^(reason|tenant|instance|kind)$/.test(name))
      expect(names.length).toBeGreaterThan(0)
      for (const name of names) {
        if (others.has(name) || records.has(name)) continue
        expect(exported, `${name} in the mock's /__admin/metrics`).toContain(name)
      }
    })
  })

  describe('loaded by a real Prometheus scraping a mock', () => {
    let mock: SpawnedServer
    let prometheus: PrometheusServer

    beforeAll(async () => {
      // One named session at most: the next ones are refused (503 too_many_sessions, session_cap).
      mock = await spawnServer(['--log', 'silent', '--admin-token', 'rules-token', '--max-sessions', '1'], {}, 30_000)
      prometheus = await startPrometheus([{ url: mock.url, token: 'rules-token' }], 1, [rulesFile])
    }, 60_000)

    afterAll(async () => {
      await prometheus?.dispose()
      await mock?.stop()
    })

    const api = async <T>(path: string): Promise<T> =>
      (await (await fetch(`${prometheus.url}${path}`, { signal: AbortSignal.timeout(5000) })).json()) as T

    it('evaluates every rule without an error, the recording rule to the mock’s own gauge', async () => {
      await prometheus.scrapedAfterNow(30_000)
      await prometheus.scrapedAfterNow(30_000)
      const { data } = await api<{
        data: { groups: { rules: { name: string; health: string; lastError?: string }[] }[] }
      }>('/api/v1/rules')
      const loaded = data.groups.flatMap((g) => g.rules)
      expect(loaded.map((r) => r.name).sort()).toEqual(rules.map((r) => r.alert ?? r.record).sort())
      // Bounded: each rule is evaluated every second once loaded.
      for (let i = 0; i < 30 && loaded.some((r) => r.health !== 'ok'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 1000))
        const again = await api<typeof data extends infer D ? { data: D } : never>('/api/v1/rules')
        loaded.splice(0, loaded.length, ...again.data.groups.flatMap((g) => g.rules))
      }
      expect(loaded.filter((r) => r.health !== 'ok')).toEqual([])
      const [recorded] = await prometheus.query('petstore_mock:memory_budget_used_ratio:max')
      const [gauge] = await prometheus.query('max(petstore_mock_memory_budget_used_ratio)')
      expect(recorded?.value).toBe(gauge?.value)
    })

    it('refused sessions make PetstoreMockRefusing (reason session_cap) and PetstoreMockStoreUnavailable pending', async () => {
      const refuse = async (): Promise<number[]> => {
        const statuses: number[] = []
        for (const name of ['one', 'two', 'three']) {
          const res = await fetch(`${mock.url}/sessions/${name}/v1/pets`, {
            headers: { Authorization: 'Bearer any-key' },
          })
          statuses.push(res.status)
          await res.arrayBuffer()
        }
        return statuses
      }
      expect(await refuse()).toContain(503)
      // A counter's first sample is where rate() starts: refusals go on while Prometheus scrapes, as
      // they do when a cap is reached (bounded: 40 rounds of one scrape each).
      let pending: { alertname: string; reason?: string }[] = []
      for (let i = 0; i < 40; i++) {
        await prometheus.scrapedAfterNow(30_000)
        await refuse()
        pending = (await prometheus.query('ALERTS{alertstate="pending"}')).map(
          (s) => s.metric as { alertname: string; reason?: string },
        )
        if (pending.length >= 2) break
      }
      expect(pending).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ alertname: 'PetstoreMockRefusing', reason: 'session_cap' }),
          expect.objectContaining({ alertname: 'PetstoreMockStoreUnavailable' }),
        ]),
      )
      // A refusal is not a 507, and nothing else fired.
      expect(pending.map((a) => a.alertname).sort()).toEqual(['PetstoreMockRefusing', 'PetstoreMockStoreUnavailable'])
    }, 120_000)
  })
})
