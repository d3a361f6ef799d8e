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

/**
 * The end-to-end contract suites: every file that builds its app with contractApp (test/helpers/contract.ts).
 * The `prefix` project runs them again with every request through a session path prefix
 * (`/sessions/<name>/…`, test/helpers/session-prefix.ts) instead of X-Mock-Session: every answer must be
 * the same; vitest.redis.config.ts runs them on Redis, through nginx, and through the prefix on Redis.
 */
export const contractSuites = [
  'test/core/bad-input.test.ts',
  'test/core/budget/budget-routes.test.ts',
  'test/core/properties.test.ts',
  'test/core/access/{admin-guard,admin-scopes,api-key-auth,cors}.test.ts',
  'test/core/admin/{admin-routes,admin-document}.test.ts',
  'test/core/body/data-body.test.ts',
  'test/core/time/clock-routes.test.ts',
  'test/core/coverage/coverage-routes.test.ts',
  'test/core/served/docs-routes.test.ts',
  'test/core/faults/{fault-routes,mock-control,rule-answer,rule-match}.test.ts',
  'test/core/http/stage.test.ts',
  'test/core/journal/{har-routes,journal-paging,requests-routes,stream-routes}.test.ts',
  'test/core/deprecation/{deprecation-routes,sunset-stage}.test.ts',
  'test/core/observe/observe.test.ts',
  'test/core/coverage/pact-routes.test.ts',
  'test/core/served/panel-routes.test.ts',
  'test/core/pets/{pets,seed,state-routes}.test.ts',
  'test/core/pipeline/read-ahead.test.ts',
  'test/core/rate-limit/rate-limit-stage.test.ts',
  'test/core/sessions/{session-routes,snapshot-routes,session-lifecycle,session-selection,session-by-key}.test.ts',
  'test/core/spec/served-document.test.ts',
  'test/core/spec/spec-driven.test.ts',
]

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
            'test/node/store/{redis-store,redis-batches,replicas,outage,probes,load-balancer,load-balanced,redis-lifecycle,redis-full,redis-battery,redis-budget}.test.ts',
            '**/node_modules/**',
          ],
        },
      },
      { extends: true, test: { name: 'prefix', ...prefixSuites, provide: { sessionPrefix: true } } },
    ],
  },
})
