import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port.js'

/** Debian's prometheus (2.42 on bookworm). */
export const prometheusPath = process.env['PROMETHEUS'] ?? '/usr/bin/prometheus'

/**
 * Installs Debian's prometheus when it is missing (as .ci/run does). Its package's own service is
 * never what a test talks to: each test starts one of its own, on a port, config and data of its own.
 */
export const ensurePrometheus = (): void => {
  if (existsSync(prometheusPath)) return
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'prometheus'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
}

/** One mock to scrape: its base URL and, when it has one, its admin token. */
export interface ScrapeTarget {
  url: string
  token?: string
}

/** A sample of an instant vector: its labels and value. */
export interface Sample {
  metric: Record<string, string>
  value: number
}

/** A prometheus of a test's own, scraping mocks' GET /__admin/metrics. */
export interface PrometheusServer {
  url: string
  child: ChildProcess
  /** An instant query through the HTTP API (/api/v1/query). */
  query(promql: string): Promise<Sample[]>
  /** Resolves once every target was scraped, successfully, after this call (bounded: `timeoutMs`). */
  scrapedAfterNow(timeoutMs?: number): Promise<void>
  /** Stops it by its PID and removes its config and data. */
  dispose(): Promise<void>
}

const configOf = (targets: readonly ScrapeTarget[], intervalSeconds: number, ruleFiles: readonly string[]): string => {
  // One job per token: Prometheus sets one Authorization per job.
  const jobs = new Map<string, string[]>()
  for (const target of targets) {
    const key = target.token ?? ''
    jobs.set(key, [...(jobs.get(key) ?? []), new URL(target.url).host])
  }
  const lines = [
    'global:',
    `  scrape_interval: ${intervalSeconds}s`,
    `  scrape_timeout: ${intervalSeconds}s`,
    `  evaluation_interval: ${intervalSeconds}s`,
    ...(ruleFiles.length === 0 ? [] : ['rule_files:', ...ruleFiles.map((file) => `  - ${JSON.stringify(file)}`)]),
    'scrape_configs:',
  ]
  ;[...jobs].forEach(([token, hosts], i) => {
    lines.push(`  - job_name: petstore-mock-${i}`, '    metrics_path: /__admin/metrics')
    if (token !== '')
      lines.push('    authorization:', '      type: Bearer', `      credentials: ${JSON.stringify(token)}`)
    lines.push('    static_configs:', `      - targets: [${hosts.map((h) => JSON.stringify(h)).join(', ')}]`)
  })
  return `${lines.join('\n')}\n`
}

const exitOf = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Targets {
  data: { activeTargets: { scrapeUrl: string; lastScrape: string; health: string; lastError: string }[] }
}

/**
 * Starts prometheus on a free loopback port with a config file and data directory of its own,
 * scraping `targets` every `intervalSeconds` (and evaluating `ruleFiles`, absolute paths, as often);
 * resolves once it is ready (bounded: 30 s).
 */
export const startPrometheus = async (
  targets: readonly ScrapeTarget[],
  intervalSeconds = 1,
  ruleFiles: readonly string[] = [],
): Promise<PrometheusServer> => {
  ensurePrometheus()
  const dir = mkdtempSync(join(tmpdir(), 'petstore-prometheus-'))
  writeFileSync(join(dir, 'prometheus.yml'), configOf(targets, intervalSeconds, ruleFiles))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(
    prometheusPath,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let log = ''
  child.stderr!.on('data', (chunk) => (log = (log + chunk).slice(-4000)))
  const dispose = async () => {
    const exited = exitOf(child)
    child.kill('SIGTERM')
    const killed = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(killed)
    rmSync(dir, { recursive: true, force: true })
  }
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(5000) })
    if (!res.ok) throw new Error(`prometheus ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }
  try {
    for (let attempt = 0; ; attempt++) {
      if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${log}`)
      const ready = await fetch(`${url}/-/ready`).then(
        (res) => res.ok,
        () => false,
      )
      if (ready) break
      if (attempt >= 150) throw new Error(`prometheus was not ready in 30 s: ${log}`)
      await sleep(200)
    }
  } catch (error) {
    await dispose()
    throw error
  }
  return {
    url,
    child,
    query: async (promql) => {
      const body = await api<{ data: { result: { metric: Record<string, string>; value: [number, string] }[] } }>(
        `/api/v1/query?query=${encodeURIComponent(promql)}`,
      )
      return body.data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }))
    },
    scrapedAfterNow: async (timeoutMs = 30_000) => {
      const after = Date.now()
      const deadline = after + timeoutMs
      for (;;) {
        const { data } = await api<Targets>('/api/v1/targets?state=active')
        const done = data.activeTargets.filter((t) => t.health === 'up' && Date.parse(t.lastScrape) > after)
        if (data.activeTargets.length === targets.length && done.length === targets.length) return
        if (Date.now() > deadline) {
          throw new Error(`not every target scraped in ${timeoutMs} ms: ${JSON.stringify(data.activeTargets)}`)
        }
        await sleep(200)
      }
    },
    dispose,
  }
}
