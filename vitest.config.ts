import { defineConfig } from 'vitest/config'

/** What every Node suite runs with (this file's and vitest.redis.config.ts's projects). */
export const nodeSuites = {
  pool: 'forks' as const,
  maxWorkers: 2,
  testTimeout: 15_000,
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
