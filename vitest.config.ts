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

export default defineConfig({
  test: {
    ...nodeSuites,
    include: ['test/**/*.test.ts'],
    // Run apart: browser suites (npm run test:browser, vitest.browser.config.ts), the ones that need a
    // container engine and the image (npm run test:testcontainers), and the ones that need redis-server
    // and nginx (npm run test:redis, vitest.redis.config.ts).
    exclude: [
      'test/browser/**',
      'test/prometheus/**',
      'test/testcontainers/**',
      'test/node/store/{redis-store,redis-batches,replicas,outage,probes,load-balancer,load-balanced}.test.ts',
      '**/node_modules/**',
    ],
  },
})
