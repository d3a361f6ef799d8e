import type { Hono } from 'hono'
import { http, type HttpHandler } from 'msw'
import {
  type AppEnv,
  type AppOptions,
  type ObserveListen,
  type PreparedMock,
  prepareMock,
} from '../core/prepare-mock.js'
import { ConnectionResetError } from '../core/http/errors.js'
import type { Pet } from '../core/spec/pet.js'
import { fakePets } from '../core/pets/seed.js'
import { createControls, type PetstoreControls } from './controls.js'
import { PetstoreMockError } from './errors.js'
import { checkNodeVersion } from './node-version.js'
import { checkedInFull, checkOptions, type HandlersOptions } from './options.js'
import { requestPattern } from './request-pattern.js'
import { whenIdle } from './when-idle.js'
import { withoutStack } from './without-stack.js'

/** msw request handlers (spread them into setupWorker or setupServer) that also carry the mock's controls. */
export type PetstoreHandlers = HttpHandler[] & PetstoreControls

/** Stands in for the observe listener while the options are checked, before it is loaded: listens to nothing. */
const noListener: ObserveListen = () => undefined

/**
 * The whole mock as msw request handlers: one handler that passes every
 * request to /v1/…, /__admin/… and /openapi.(yaml|json) on the page's own
 * origin and on `origins` (or any, `origins: 'any'`) to the app, exactly
 * as the server would answer it; anything
 * else is left to msw's onUnhandledFrame/onUnhandledRequest. A
 * connection_reset fault becomes a network error (fetch rejects with a
 * TypeError). Options are checked at once: a bad one throws a
 * PetstoreMockError naming it. The app's routes are registered and routed
 * later, when the page is idle (while msw starts its worker), or by the
 * first request if it comes first. In a Node.js older than msw 3 needs
 * (22.12), throws a one-line PetstoreMockError naming it.
 */
export const createHandlers = (options: HandlersOptions = {}): PetstoreHandlers => {
  checkNodeVersion()
  const checked = checkOptions(options)
  const pattern = requestPattern(checked.spec.basePath, checked.origins)
  const { faker } = checked
  // An app that observes (observe's requests or tracer) loads the observe listener, and with it the refusal
  // reasons, with the admin host (which re-exports it): most never do, and their bundle does not carry it at
  // start. Its mock waits for it. An import() of the listener's own would split the start's modules it
  // shares into chunks of their own (docs/internals/performance.md).
  const observes = options.observe?.requests !== undefined || options.observe?.tracer !== undefined
  const listener = observes
    ? import('../core/admin/admin-host.js').then(({ observeListener }) => observeListener)
    : undefined
  listener?.catch(() => {})
  const prepare = (pets?: Pet[], observeListener: ObserveListen | undefined = observes ? noListener : undefined) => {
    try {
      const app = pets ? { ...checked.app, pets } : checked.app
      return observeListener ? prepareMock(app, undefined, undefined, { observeListener }) : prepareMock(app)
    } catch (error) {
      throw error instanceof TypeError ? new PetstoreMockError(error.message) : error
    }
  }
  // The app checks the options it owns (clock, rateLimit, …): given one, prepare the mock now, so that
  // a bad one throws here even when faker's pets come later (then this first one, without pets, only
  // checks). Given none, nothing is left to check, and making the mock waits for its first use.
  const checkedMock = checkedInFull(options) ? undefined : prepare(faker ? [] : undefined)
  let started: Promise<PreparedMock> | undefined
  let settle: (mock: Promise<PreparedMock>) => void = () => {}
  const made = new Promise<PreparedMock>((resolve) => (settle = resolve))
  // Whoever uses the mock sees a failure; an unused one must not be an unhandled rejection.
  made.catch(() => {})
  const start = (): Promise<PreparedMock> => {
    if (started) return started
    started = listener
      ? Promise.all([listener, faker && fakePets(faker.count, faker.seed, faker.data)]).then(([listen, pets]) =>
          prepare(pets || undefined, listen),
        )
      : faker
        ? fakePets(faker.count, faker.seed, faker.data).then((pets) => prepare(pets))
        : new Promise((resolve) => resolve(checkedMock ?? prepare()))
    settle(started)
    return started
  }
  if (faker || checkedMock) start()
  let app: Hono<AppEnv> | undefined
  const appOf = (prepared: PreparedMock): Hono<AppEnv> => (app ??= prepared.build())
  // Making the mock, registering its routes and compiling hono's router (which it does on its first
  // match, any path) check nothing, and nothing waits for them before the first request: each is done
  // when the page is idle, a few ms at a time, which falls in worker.start()'s wait for the browser
  // instead of delaying the app's next task (its first render). A request or a control coming first
  // does what is left. None can fail (see checkedInFull); were one to, the first request would meet
  // the error.
  const ahead = (step: () => unknown) => {
    try {
      step()
    } catch {}
  }
  whenIdle(() =>
    start().then(
      (prepared) =>
        whenIdle(() => {
          ahead(() => appOf(prepared))
          whenIdle(() => ahead(() => appOf(prepared).router.match('GET', '/')))
        }),
      () => {},
    ),
  )
  const handler = withoutStack(() =>
    http.all(pattern, async ({ request }) => {
      const prepared = await start()
      try {
        return await appOf(prepared).fetch(request)
      } catch (error) {
        if (error instanceof ConnectionResetError) return Response.error()
        throw error
      }
    }),
  )
  checkMswMajor(handler)
  const answer = async (request: Request): Promise<Response> => appOf(await start()).fetch(request)
  return Object.assign([handler], createControls(answer, made, controlToken(checked.app)))
}

/**
 * The admin token the in-process controls send: the unscoped one, else the first unscoped entry of
 * `adminTokens` (SECRET, without =PATTERN or :read).
 */
const controlToken = ({ adminToken, adminTokens }: AppOptions): string | undefined =>
  adminToken ?? adminTokens?.find((token) => !/[=:]/.test(token))

/**
 * Throws unless `handler` was made by msw 3 (the peer dependency's range, ^3): msw 3's handlers, and
 * no earlier msw's, have `dispose()` (its Handler base class, 3.0.0 on). msw 2 would answer, but
 * silently ignore the options a set-up written for msw 3 passes (`onUnhandledFrame`), and it is what
 * npm installs without a word on Node.js 20, where msw 3 does not run. A later major than 3 cannot be
 * told from here: npm refuses it against the peer range.
 */
const checkMswMajor = (handler: HttpHandler): void => {
  if (typeof (handler as { dispose?: unknown }).dispose === 'function') return
  throw new PetstoreMockError(
    'needs msw 3 (the msw installed is an earlier major, which ignores onUnhandledFrame; npm installs msw 2 ' +
      'on a Node.js older than 22.12, where msw 3 does not run): use Node.js 22.12 or later and npm install --save-dev msw@3',
  )
}
