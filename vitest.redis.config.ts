import { defineConfig } from 'vitest/config'
import { contractSuites, nodeSuites, prefixSuites } from './vitest.config.js'

// The suites that need Debian's redis-server and nginx (npm run test:redis; .ci/run installs both, and
// the helpers install them when missing where apt-get can): kept out of `npm test`, which needs only
// Node, as the browser and container suites are.
// The end-to-end contract suites (vitest.config.ts) run again with their apps on the Redis store, against a
// redis-server the project's global setup starts.

export default defineConfig({
  test: {
    ...nodeSuites,
    projects: [
      {
        extends: true,
        // The store itself, three replicas on one Redis, Redis outages, a load balancer (nginx): each
        // starts its own redis-server (and nginx) on loopback ports.
        test: {
          name: 'redis-store',
          include: [
            'test/node/store/{redis-store,redis-batches,replicas,outage,probes,load-balancer,redis-lifecycle,redis-battery,redis-budget}.test.ts',
            // A full Redis: the budget's figures, then reads, readiness and writes on every replica (issue 41 §2).
            'test/node/store/full/*.test.ts',
            'test/node/store/timelines/redis-timelines.test.ts',
            'test/node/tenants/{tenants-replicas,redis-quotas}.test.ts',
            // Issue 41 §4: requirepass, an ACL user and TLS, each on a redis-server of the test's own.
            'test/node/store/access/*.test.ts',
            // A stop signal drains a replica; two replicas rolled under keep-alive load (issue 41 §1).
            'test/node/drain/{drain-redis,rolling-restart}.test.ts',
            // A rolling upgrade from the previous release (built from its commit) to this build.
            'test/node/fleet/rolling-upgrade.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: { name: 'redis', include: contractSuites, globalSetup: ['test/helpers/redis-setup.ts'] },
      },
      {
        extends: true,
        // The same suites with every request over HTTP through Debian's nginx (the shared proxy
        // configuration, round robin) to three replicas on one Redis (test/helpers/load-balanced.ts).
        test: {
          name: 'redis-lb',
          include: [...contractSuites, 'test/node/store/load-balanced.test.ts'],
          globalSetup: ['test/helpers/redis-setup.ts'],
          provide: { loadBalanced: true },
        },
      },
      {
        extends: true,
        // On Redis, every request through a session path prefix (/sessions/<name>/…) instead of X-Mock-Session.
        test: {
          name: 'redis-prefix',
          ...prefixSuites,
          globalSetup: ['test/helpers/redis-setup.ts'],
          provide: { sessionPrefix: true },
        },
      },
    ],
  },
})
