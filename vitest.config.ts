import { defineConfig } from 'vitest/config'

// The end-to-end contract suites: every file that builds its app with contractApp (test/helpers/contract.ts).
// The `redis` project runs them again on the Redis store, against a redis-server of its own.
const contractSuites = [
  'test/core/bad-input.test.ts',
  'test/core/properties.test.ts',
  'test/core/routes/*.test.ts',
  'test/core/spec/served-document.test.ts',
  'test/core/spec/spec-driven.test.ts',
  'test/core/stages/*.test.ts',
  'test/core/state/seed.test.ts',
]

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 15_000,
    globalSetup: ['test/helpers/build.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'memory',
          include: ['test/**/*.test.ts'],
          // Run apart: browser suites (npm run test:browser, vitest.browser.config.ts) and the ones that
          // need a container engine and the image (npm run test:testcontainers).
          exclude: ['test/browser/**', 'test/testcontainers/**', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'redis',
          include: contractSuites,
          globalSetup: ['test/helpers/redis-setup.ts'],
        },
      },
    ],
  },
})
