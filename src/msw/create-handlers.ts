import type { Hono } from 'hono'
import { http, type HttpHandler } from 'msw'
import { type PreparedMock, prepareMock } from '../core/app.js'
import type { AppEnv } from '../core/app-env.js'
import { ConnectionResetError } from '../core/http/errors.js'
import type { Pet } from '../core/state/pet.js'
import { fakePets } from '../core/state/seed.js'
import { createControls, type PetstoreControls } from './controls.js'
import { PetstoreMockError } from './errors.js'
import { checkOptions, type HandlersOptions } from './options.js'
import { requestPattern } from './request-pattern.js'

/** msw request handlers (spread them into setupWorker or setupServer) that also carry the mock's controls. */
export type PetstoreHandlers = HttpHandler[] & PetstoreControls

/**
 * The whole mock as msw request handlers: one handler that passes every
 * request to /v1/…, /__admin/… and /openapi.(yaml|json) (on `baseUrl`, or
 * any origin) to the app, exactly as the server would answer it; anything
 * else is left to msw's onUnhandledFrame/onUnhandledRequest. A
 * connection_reset fault becomes a network error (fetch rejects with a
 * TypeError). Options are checked at once: a bad one throws a
 * PetstoreMockError naming it. The app's routes are registered just after,
 * while msw starts its worker (or by the first request, if it comes first).
 */
export const createHandlers = (options: HandlersOptions = {}): PetstoreHandlers => {
  const checked = checkOptions(options)
  const pattern = requestPattern(checked.spec.basePath, checked.baseUrl)
  const { faker } = checked
  // The app checks the options it owns (clock, rateLimit, …): prepare it now, so that a bad one throws
  // here even when faker's pets come later (then this first one, without pets, only checks).
  const prepare = (pets?: Pet[]): PreparedMock => {
    try {
      return prepareMock(pets ? { ...checked.app, pets } : checked.app)
    } catch (error) {
      throw error instanceof TypeError ? new PetstoreMockError(error.message) : error
    }
  }
  const checkedMock = prepare(faker ? [] : undefined)
  const mock: Promise<PreparedMock> = faker
    ? fakePets(faker.count, faker.seed).then((pets) => prepare(pets))
    : Promise.resolve(checkedMock)
  // Whoever uses the mock sees a failure; an unused one must not be an unhandled rejection.
  mock.catch(() => {})
  let app: Hono<AppEnv> | undefined
  const appOf = (prepared: PreparedMock): Hono<AppEnv> => {
    if (app) return app
    app = prepared.build()
    // hono compiles its router on the first match (any path): done here, not by the first request.
    app.router.match('GET', '/')
    return app
  }
  // Registering the routes and compiling the router check nothing, and msw's worker.start() mostly
  // waits on the browser: done in a task of their own, which runs during it (README: the start budget).
  mock.then(
    (prepared) =>
      setTimeout(() => {
        try {
          appOf(prepared)
        } catch {
          // Cannot fail (prepareMock); were it to, the first request would meet the error.
        }
      }),
    () => {},
  )
  const handler = http.all(pattern, async ({ request }) => {
    const prepared = await mock
    try {
      return await appOf(prepared).fetch(request)
    } catch (error) {
      if (error instanceof ConnectionResetError) return Response.error()
      throw error
    }
  })
  return Object.assign([handler], createControls(mock))
}
