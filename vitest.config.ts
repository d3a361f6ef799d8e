import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Run apart: browser suites (npm run test:browser, vitest.browser.config.ts) and the ones that
    // need a container engine and the image (npm run test:testcontainers).
    exclude: ['test/browser/**', 'test/testcontainers/**', '**/node_modules/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 15_000,
    globalSetup: ['test/helpers/build.ts'],
  },
})
