import { defineConfig } from 'vitest/config'
import { nodeSuites } from './vitest.config.js'

// The suites that need Debian's redis-server and nginx (npm run test:redis; .ci/run installs both, and
// the helpers install them when missing where apt-get can): kept out of `npm test`, which needs only
// Node, as the browser and container suites are.
// The end-to-end contract suites: every file that builds its app with contractApp (test/helpers/contract.ts),
// run again with their apps on the Redis store, against a redis-server the project's global setup starts.
const contractSuites = [
  'test/core/bad-input.test.ts',
  'test/core/budget/budget-routes.test.ts',
  'test/core/properties.test.ts',
  'test/core/access/{admin-guard,api-key-auth,cors}.test.ts',
  'test/core/admin/admin-routes.test.ts',
  'test/core/body/data-body.test.ts',
  'test/core/clock/clock-routes.test.ts',
  'test/core/docs/docs-routes.test.ts',
  'test/core/faults/{fault-routes,mock-control}.test.ts',
  'test/core/http/stage.test.ts',
  'test/core/journal/{har-routes,requests-routes,stream-routes}.test.ts',
  'test/core/lifecycle/{deprecation-routes,sunset-stage}.test.ts',
  'test/core/panel/panel-routes.test.ts',
  'test/core/pets/{pets,seed,state-routes}.test.ts',
  'test/core/pipeline/read-ahead.test.ts',
  'test/core/rate-limit/rate-limit-stage.test.ts',
  'test/core/sessions/{session-routes,snapshot-routes}.test.ts',
  'test/core/spec/served-document.test.ts',
  'test/core/spec/spec-driven.test.ts',
]

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
            'test/node/store/{redis-store,redis-batches,replicas,outage,load-balancer,redis-full,redis-battery}.test.ts',
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
    ],
  },
})
