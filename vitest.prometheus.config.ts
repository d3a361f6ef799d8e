import { defineConfig } from 'vitest/config'
import { nodeSuites } from './vitest.config.js'

// The suites that need Debian's prometheus (npm run test:prometheus; .ci/run installs it, and the
// helper installs it when missing where apt-get can), and redis-server for the replicas: each test
// starts its own on loopback ports with its own config and data, and stops them by PID. Kept out of
// `npm test`, which needs only Node, as the Redis, browser and container suites are.
export default defineConfig({
  test: {
    ...nodeSuites,
    include: ['test/prometheus/**/*.test.ts'],
  },
})
