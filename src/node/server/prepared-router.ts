import type { Hono } from 'hono'
import { UnsupportedPathError } from 'hono/router'
import { PreparedRegExpRouter, RegExpRouter } from 'hono/router/reg-exp-router'

/** What hono's RegExpRouter builds on the first request it routes: per method, its regexp, handlers and static paths. */
type Matchers<T> = ConstructorParameters<typeof PreparedRegExpRouter<T>>[0]

/**
 * hono's RegExpRouter matchers for one exact list of routes (method and path, in order), built
 * ahead of time; each handler is the index of its route in that list.
 */
export interface PreparedRoutes {
  routes: readonly (readonly [method: string, path: string])[]
  matchers: Matchers<number>
}

// The protected method that builds the matchers, as hono's own buildInitParams reaches it.
class MatcherBuilder<T> extends RegExpRouter<T> {
  build(): Matchers<T> {
    return this.buildAllMatchers()
  }
}

/**
 * The matchers of an app's routes, built as hono would on its first request; none when the
 * RegExpRouter cannot take them (hono then routes with its TrieRouter).
 */
export const prepareRoutes = (app: Hono<any>): PreparedRoutes | undefined => {
  const routes = app.routes.map((route) => [route.method, route.path] as const)
  const builder = new MatcherBuilder<number>()
  try {
    routes.forEach(([method, path], index) => builder.add(method, path, index))
    return { routes, matchers: builder.build() }
  } catch (error) {
    if (error instanceof UnsupportedPathError) return undefined
    throw error
  }
}

// JavaScript for a value of the matchers: null-prototype objects as hono's, undefined kept.
const source = (value: unknown): string => {
  if (value === undefined) return 'void 0'
  if (value instanceof RegExp) return String(value)
  if (Array.isArray(value)) return `[${Array.from(value, source).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `[${JSON.stringify(key)}]:${source(item)}`)
    return `{__proto__:null,${entries.join(',')}}`
  }
  return JSON.stringify(value)
}

/** An ES module exporting `embeddedRouters`, the routers of `prepared` (what scripts/bundle.mjs puts in place of embedded-routers.ts). */
export const embeddedRoutersModule = (prepared: readonly PreparedRoutes[]): string =>
  `export const embeddedRouters = [${prepared
    .map(({ routes, matchers }) => `{routes:${JSON.stringify(routes)},matchers:${source(matchers)}}`)
    .join(',')}]\n`

const sameRoutes = (app: Hono<any>, routes: PreparedRoutes['routes']): boolean =>
  app.routes.length === routes.length &&
  app.routes.every((route, i) => route.method === routes[i]?.[0] && route.path === routes[i]?.[1])

type Matcher<T> = NonNullable<Matchers<T>[string]>
type Entries<T> = Matcher<T>[1][number]

const nullObject = <V>(entries: [string, V][]): Record<string, V> =>
  Object.assign(Object.create(null), Object.fromEntries(entries))

// The matchers with each route index replaced by what Hono#addRoute hands the router: [handler, route].
const withHandlers = <T>(matchers: Matchers<number>, handlers: readonly T[]): Matchers<T> => {
  const entries = (list: Entries<number> | undefined): Entries<T> =>
    list?.map(([index, params]) => [handlers[index] as T, params]) as Entries<T>
  return nullObject(
    Object.entries(matchers).map(([method, matcher]) => [
      method,
      matcher && [
        matcher[0],
        matcher[1].map(entries),
        nullObject(
          Object.entries(matcher[2]).map(([path, [list, stash]]) => [path, [entries(list as Entries<number>), stash]]),
        ),
      ],
    ]),
  ) as Matchers<T>
}

/**
 * Routes `app` by matchers prepared for exactly its routes, when one of `prepared` was: hono then
 * builds nothing on the first request (about 2 ms at start-up). Any other app (another contract,
 * other options) keeps its own router. Returns whether it was replaced. Call once every route is added.
 */
export const usePreparedRouter = (app: Hono<any>, prepared: readonly PreparedRoutes[]): boolean => {
  const match = prepared.find(({ routes }) => sameRoutes(app, routes))
  if (!match) return false
  const handlers = app.routes.map((route) => [route.handler, route] as [any, typeof route])
  app.router = new PreparedRegExpRouter(withHandlers(match.matchers, handlers), {})
  return true
}
