import { readdirSync, readFileSync } from 'node:fs'
import { type Context, Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { parseCommandLine } from '../../../src/node/cli/cli.js'
import { serverApp } from '../../../src/node/main.js'
import {
  type PreparedRoutes,
  embeddedRoutersModule,
  prepareRoutes,
  usePreparedRouter,
} from '../../../src/node/server/prepared-router.js'
import { bearer } from '../../helpers/auth.js'

const appFor = async (argv: string[]): Promise<Hono<any>> => {
  const command = parseCommandLine(argv, {})
  if (command.run !== 'serve') throw new Error(`${argv.join(' ')} does not serve`)
  return (await serverApp(command.config)).app
}

// As the bundle has them: through the module scripts/bundle.mjs embeds.
const embedded = (prepared: (PreparedRoutes | undefined)[]): PreparedRoutes[] =>
  new Function(
    embeddedRoutersModule(prepared.filter((routes) => routes !== undefined)).replace(
      'export const embeddedRouters =',
      'return',
    ),
  )()

const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

// Every route's path with its parameters and wildcards filled in, and paths no route has.
const paths = (app: Hono<any>): string[] => [
  ...new Set([
    ...app.routes.map((route) => route.path.replace(/:[^/]+/g, 'x1').replace(/\*/g, 'a/b')),
    ...['/', '/nope', '/v1', '/v1/pets/', '/v1/pets/12/x', '/V1/pets', '/v1/pets/%31', '/__admin/x/y'],
    ...['/__admin/', '/__admin', '/__admin/faults/7', '/__admin/sessions/s', '/openapi.yaml/', '/__admin/panel.js/'],
  ]),
]

// What a router answers, comparable across apps: each handler as its route's index, parameters resolved.
const routed = (app: Hono<any>, method: string, path: string) => {
  const [handlers, stash] = app.router.match(method, path)
  return handlers.map(([[handler, route], params]) => {
    expect(handler).toBe(route.handler)
    const values = Object.entries(params).map(([name, at]) => [name, stash ? stash[at as number] : at])
    return [app.routes.indexOf(route), Object.fromEntries(values)]
  })
}

describe('the router prepared when the bundle is built', () => {
  it.each([
    ['--log', 'silent'],
    ['--log', 'json'],
  ])('routes %s %s as hono itself does', async (...argv) => {
    const prepared = embedded([prepareRoutes(await appFor(argv))])
    const app = await appFor(argv)
    const own = await appFor(argv)
    expect(usePreparedRouter(app, prepared)).toBe(true)
    expect(app.router.name).toBe('PreparedRegExpRouter')
    for (const method of methods) {
      for (const path of paths(own))
        expect([method, path, routed(app, method, path)]).toEqual([method, path, routed(own, method, path)])
    }
  })

  it('leaves an app with other routes to hono', async () => {
    const prepared = embedded([prepareRoutes(await appFor(['--log', 'silent']))])
    const app = await appFor(['--log', 'json'])
    expect(usePreparedRouter(app, prepared)).toBe(false)
    expect(app.router.name).toBe('SmartRouter')
  })

  it("prepares nothing for routes hono's RegExpRouter cannot take (its TrieRouter then routes them)", () => {
    const answer = (c: Context) => c.text('x')
    const app = new Hono().get('/a/:id{[0-9]+}/x', answer).get('/a/:id{[a-z]+}/y', answer)
    expect(prepareRoutes(app)).toBeUndefined()
  })

  it('serves requests through the app', async () => {
    const app = await appFor(['--log', 'silent'])
    usePreparedRouter(app, embedded([prepareRoutes(await appFor(['--log', 'silent']))]))
    const headers = bearer()
    expect((await app.request('/v1/pets/2', { headers })).status).toBe(200)
    expect((await app.request('/v1/pets/x', { headers })).status).toBe(400)
    expect((await app.request('/v1/pets', { method: 'PUT', headers })).status).toBe(405)
    expect((await app.request('/nope', { headers })).status).toBe(404)
  })

  it('are in the bundle the global setup built (dist/chunks), for both command lines', () => {
    const chunks = new URL('../../../dist/chunks/', import.meta.url)
    const embedding = readdirSync(chunks)
      .map((name) => readFileSync(new URL(name, chunks), 'utf8'))
      .filter((code) => code.includes('embeddedRouters=['))
    expect(embedding).toHaveLength(1)
    // One router per command line (--log silent and --log json), not the empty list of the sources.
    expect(embedding[0]!.match(/embeddedRouters=\[\{routes:/)).not.toBeNull()
    expect(embedding[0]!.split('{routes:')).toHaveLength(3)
  })
})
