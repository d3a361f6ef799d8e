import { readdirSync, readFileSync } from 'node:fs'
import { sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/** What every Node suite runs with (this file's and vitest.redis.config.ts's projects). */
export const nodeSuites = {
  pool: 'forks' as const,
  maxWorkers: 2,
  // Bounds against a hang, generous for a busy machine (issue 27 §3): at a load of 30 on 2 cores, tests
  // of 2 to 4 s took 15 to 17 s. No test relies on them to judge speed.
  testTimeout: 60_000,
  hookTimeout: 60_000,
  globalSetup: ['test/helpers/build.ts'],
}

/** The suites that build contractApp only to check what the `redis-lb` project stands on (nginx, three replicas). */
const contractSelfChecks = ['test/node/store/load-balanced.test.ts']

/**
 * The end-to-end contract suites: every file under test/ that builds its app with contractApp
 * (test/helpers/contract.ts), found when the configuration loads, so that a new suite is in without
 * being listed. The `prefix` project runs them again with every request through a session path prefix
 * (`/sessions/<name>/…`, test/helpers/session-prefix.ts) instead of X-Mock-Session: every answer must be
 * the same; vitest.redis.config.ts runs them on Redis, through nginx, and through the prefix on Redis.
 */
export const contractSuites: string[] = readdirSync(fileURLToPath(new URL('test', import.meta.url)), {
  recursive: true,
  encoding: 'utf8',
})
  .map((path) => `test/${path.split(sep).join('/')}`)
  .filter(
    (path) => path.endsWith('.test.ts') && !path.startsWith('test/browser/') && !contractSelfChecks.includes(path),
  )
  .filter((path) => /\bcontractApp\(/.test(readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8')))
  .sort()

/**
 * The contract suites the `prefix` projects leave out: sessions named by API key (--session-by-key),
 * which a path prefix on every request would contradict (400 session_conflict, tested on its own).
 */
export const byKeySuites = ['test/core/sessions/session-by-key.test.ts']

/** The `prefix` projects' files: the contract suites but {@link byKeySuites}. */
export const prefixSuites = { include: contractSuites, exclude: [...byKeySuites, '**/node_modules/**'] }

export default defineConfig({
  test: {
    ...nodeSuites,
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          // Run apart: browser suites (npm run test:browser, vitest.browser.config.ts), the ones that need a
          // container engine and the image (npm run test:testcontainers), and the ones that need redis-server
          // and nginx (npm run test:redis, vitest.redis.config.ts).
          exclude: [
            'test/browser/**',
            'test/prometheus/**',
            'test/testcontainers/**',
            'test/node/store/{redis-store,redis-batches,replicas,outage,probes,load-balancer,load-balanced,redis-lifecycle,redis-battery,redis-budget}.test.ts',
            'test/node/store/full/**',
            'test/node/tenants/{tenants-replicas,redis-quotas}.test.ts',
            'test/node/store/access/**',
            'test/node/drain/{drain-redis,rolling-restart}.test.ts',
            'test/node/fleet/rolling-upgrade.test.ts',
            'test/node/store/timelines/redis-timelines.test.ts',
            '**/node_modules/**',
          ],
        },
      },
      { extends: true, test: { name: 'prefix', ...prefixSuites, provide: { sessionPrefix: true } } },
    ],
  },
})
