import { describe, expect, it } from 'vitest'
import { adminHost, type AdminHostDeps } from '../../../src/core/admin/admin-host.js'
import { adminPaths, metricsPath } from '../../../src/core/admin/admin-paths.js'
import { createApp } from '../../../src/core/app.js'
import { bundledSpec } from '../../../src/core/spec/bundled-spec.js'
import { coverageModel } from '../../../src/core/coverage/coverage-model.js'
import { createLogger } from '../../../src/core/log/log.js'
import { startClock } from '../../../src/core/time/clock.js'

/** The routes the host registers (not its middleware), once each, in order. */
const routesOf = (deps: Partial<AdminHostDeps>) => [
  ...new Set(
    adminHost({
      spec: bundledSpec(),
      coverage: coverageModel(bundledSpec()),
      scopes: { tokens: [], logger: createLogger('silent'), sessionNameOf: () => undefined },
      validatePet: bundledSpec().componentValidator('Pet'),
      start: { seed: 1, clock: startClock(undefined), rateLimit: undefined },
      ...deps,
    } as AdminHostDeps)
      .routes.filter((route) => route.method !== 'ALL')
      .map(({ method, path }) => `${method} ${path}`),
  ),
]
const listed = (paths: readonly (readonly [string, string])[]) => paths.map(([method, path]) => `${method} ${path}`)
const metrics = async () => ({ contentType: 'text/plain', body: '' })

describe('the routes the app hands to the lazily loaded admin host (admin-paths.ts)', () => {
  it('are the routes the host registers, in its order', () => {
    expect(routesOf({})).toEqual(listed(adminPaths))
    expect(routesOf({ metrics })).toEqual(listed([...adminPaths, metricsPath]))
  })

  it('are registered by the app before its first /__admin request, each once', () => {
    const admin = (app: ReturnType<typeof createApp>) =>
      app.routes.filter(
        (r) => r.method !== 'ALL' && r.path.startsWith('/__admin/') && !r.path.startsWith('/__admin/health/'),
      )
    expect(admin(createApp()).map(({ method, path }) => `${method} ${path}`)).toEqual(listed(adminPaths))
    expect(admin(createApp({ observe: { metrics } })).map(({ method, path }) => `${method} ${path}`)).toEqual(
      listed([...adminPaths, metricsPath]),
    )
  })
})
