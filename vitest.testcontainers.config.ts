import { defineConfig } from 'vitest/config'

// npm run test:testcontainers (test/testcontainers/run.sh): starts containers through Testcontainers
// against the engine at hand; the script builds the image and sets the environment.
export default defineConfig({
  test: {
    include: ['test/testcontainers/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
