import { defineConfig } from 'vitest/config'

// npm run test:browser: suites that drive headless Chromium (Debian's package, via playwright-core).
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A page renders after the event that changed it: the tests wait for what they assert with
    // expect.poll, whose 1 s default was too short on a loaded machine (a panel poll ran out at 1 s
    // while an npm install ran beside it). A bound against a hang, not a measure of speed.
    expect: { poll: { timeout: 15_000 } },
    globalSetup: ['test/helpers/build.ts'],
  },
})
