import { defineConfig } from 'vitest/config'

/** What every Node suite runs with (this file's and vitest.redis.config.ts's projects). */
export const nodeSuites = {
  pool: 'forks' as const,
  maxWorkers: 2,
  testTimeout: 15_000,
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
  'test/core/properties.test.ts',
  'test/core/access/{admin-guard,api-key-auth,cors-policy}.test.ts',
  'test/core/body/data-body.test.ts',
  'test/core/clock/clock-routes.test.ts',
  'test/core/faults/{fault-routes,mock-control}.test.ts',
  'test/core/http/stage.test.ts',
  'test/core/journal/{har-routes,requests-routes,stream-routes}.test.ts',
  'test/core/lifecycle/{deprecation-routes,sunset-stage}.test.ts',
  'test/core/panel/panel-routes.test.ts',
  'test/core/pets/{pets,seed}.test.ts',
  'test/core/pipeline/read-ahead.test.ts',
  'test/core/rate-limit/rate-limit-stage.test.ts',
  'test/core/sessions/{session-routes,snapshot-routes,state-routes,session-lifecycle,session-selection}.test.ts',
  'test/core/access/admin-scopes.test.ts',
  'test/core/spec/served-document.test.ts',
  'test/core/spec/spec-driven.test.ts',
]

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
            'test/testcontainers/**',
            'test/node/store/{redis-store,redis-batches,replicas,outage,load-balancer,load-balanced,redis-lifecycle}.test.ts',
            '**/node_modules/**',
          ],
        },
      },
      { extends: true, test: { name: 'prefix', include: contractSuites, provide: { sessionPrefix: true } } },
    ],
  },
})
