import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser suites run apart (npm run test:browser, vitest.browser.config.ts).
    exclude: ['test/browser/**', '**/node_modules/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 15_000,
    globalSetup: ['test/helpers/build.ts'],
  },
})
