import { http, type HttpHandler } from 'msw'
import { createMock, type Mock } from '../core/app.js'
import { ConnectionResetError } from '../core/errors.js'
import type { Pet } from '../core/pet.js'
import { fakePets } from '../core/seed.js'
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
 * PetstoreMockError naming it.
 */
export const createHandlers = (options: HandlersOptions = {}): PetstoreHandlers => {
  const checked = checkOptions(options)
  const pattern = requestPattern(checked.spec.basePath, checked.baseUrl)
  const { faker } = checked
  // The app checks the options it owns (clock, rateLimit, …): build it now, so that a bad one throws
  // here even when faker's pets come later (then this first app, without pets, only checks).
  const build = (pets?: Pet[]): Mock => {
    try {
      return createMock(pets ? { ...checked.app, pets } : checked.app)
    } catch (error) {
      throw error instanceof TypeError ? new PetstoreMockError(error.message) : error
    }
  }
  const checkedMock = build(faker ? [] : undefined)
  const mock: Promise<Mock> = faker
    ? fakePets(faker.count, faker.seed).then((pets) => build(pets))
    : Promise.resolve(checkedMock)
  // Whoever uses the mock sees a failure; an unused one must not be an unhandled rejection.
  mock.catch(() => {})
  const handler = http.all(pattern, async ({ request }) => {
    const { app } = await mock
    try {
      return await app.fetch(request)
    } catch (error) {
      if (error instanceof ConnectionResetError) return Response.error()
      throw error
    }
  })
  return Object.assign([handler], createControls(mock))
}
