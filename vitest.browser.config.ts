import { defineConfig } from 'vitest/config'

// npm run test:browser: suites that drive headless Chromium (Debian's package, via playwright-core).
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/helpers/build.ts'],
  },
})
