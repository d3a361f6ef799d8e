import { Hono, type MiddlewareHandler } from 'hono'
import { methodNotAllowed } from 'hono/method-not-allowed'
import type { AppEnv } from './app-env.js'
import { ApiError } from './errors.js'
import { createLogger, type Logger } from './log.js'
import { apiKeyAuth } from './middleware/api-key-auth.js'
import { deprecation } from './middleware/deprecation.js'
import { jsonBody } from './middleware/json-body.js'
import { requestLog } from './middleware/request-log.js'
import { validateRequest } from './middleware/validate-request.js'
import type { Pet } from './pet.js'
import { PetIndex } from './pet-index.js'
import { errorResponse, handleError } from './respond.js'
import { docsRoutes } from './routes/docs.js'
import { petHandlers } from './routes/pet-handlers.js'
import { defaultFixturesPath, readFixtures } from './seed.js'
import { SessionRegistry } from './sessions.js'
import { loadSpec, type Spec, type SpecOperation } from './spec/load-spec.js'

/** Options of {@link createApp}; every one has a default. */
export interface AppOptions {
  /** The contract; default: the bundled openapi.yaml (or `specPath`). */
  spec?: Spec
  specPath?: string
  /** Start-up pets; default: the bundled fixtures/pets.yaml. */
  pets?: readonly Pet[]
  /** Accepted API keys; empty (default) accepts any well-formed bearer token. */
  apiKeys?: readonly string[]
  /** Largest accepted request body, bytes (default 1 MiB). */
  bodyLimit?: number
  /** Most pets a session holds (default 100000). */
  maxPets?: number
  /** Most sessions kept (default 100). */
  maxSessions?: number
  /** Default: silent. */
  logger?: Logger
}

/** The defaults of {@link AppOptions}. */
export const appDefaults = {
  bodyLimit: 1024 * 1024,
  maxPets: 100_000,
  maxSessions: 100,
} as const

const operationStages = (
  operation: SpecOperation,
  options: { logger: Logger; auth: MiddlewareHandler; bodyLimit: number },
): MiddlewareHandler<AppEnv>[] => [
  async function operationContext(c, next) {
    c.set('operation', operation)
    await next()
  },
  ...(operation.deprecated ? [deprecation(operation, options.logger)] : []),
  options.auth,
  ...(operation.requestBody ? [jsonBody(options.bodyLimit)] : []),
  validateRequest(operation),
]

/**
 * Builds the Hono app: the contract's operations routed from the document,
 * each as a pipeline of stages (authenticate → read body → validate →
 * handle), plus the served document. No socket: see `startServer`.
 */
export const createApp = (options: AppOptions = {}): Hono<AppEnv> => {
  const spec = options.spec ?? loadSpec(options.specPath)
  const logger = options.logger ?? createLogger('silent')
  const pets = options.pets ?? readFixtures(defaultFixturesPath, spec.componentValidator('Pet'))
  const sessions = new SessionRegistry(
    { pets: PetIndex.from(pets), maxPets: options.maxPets ?? appDefaults.maxPets },
    options.maxSessions ?? appDefaults.maxSessions,
  )
  const handlers = petHandlers(spec.basePath)
  const auth = apiKeyAuth({ keys: options.apiKeys ?? [], realm: 'petstore' })
  const bodyLimit = options.bodyLimit ?? appDefaults.bodyLimit

  const app = new Hono<AppEnv>()
  app.onError(handleError(logger))
  app.notFound((c) => errorResponse(c, new ApiError(404, `No route for ${c.req.method} ${c.req.path}.`)))
  app.use(requestLog(logger))
  app.use(
    methodNotAllowed({
      app,
      // RFC 9110 §15.5.6: a 405 must carry Allow.
      onMethodNotAllowed: (c, methods) =>
        errorResponse(
          c,
          new ApiError(405, `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(', ')}.`, {
            headers: { Allow: methods.join(', ') },
          }),
        ),
    }),
  )
  app.use(`${spec.basePath}/*`, async function selectSession(c, next) {
    c.set('session', sessions.get())
    await next()
  })
  app.route('/', docsRoutes(spec))
  for (const operation of spec.operations) {
    const handler = handlers[operation.id]
    if (!handler) throw new Error(`openapi.yaml defines ${operation.id}, which petstore-mock does not implement`)
    app.on(
      [operation.method],
      [operation.routePath],
      ...operationStages(operation, { logger, auth, bodyLimit }),
      handler,
    )
  }
  return app
}
