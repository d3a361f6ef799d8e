import type { Hono } from 'hono'
import { TrieRouter } from 'hono/router/trie-router'

/**
 * The methods each path of an app answers (HEAD with GET), looked up from its
 * registered routes; built on first use, once every route is registered.
 */
export const routeMethods = (app: Hono<any>): ((path: string) => string[]) => {
  let router: TrieRouter<string> | undefined
  const build = () => {
    const built = new TrieRouter<string>()
    for (const route of app.routes) {
      if (route.method === 'ALL') continue
      built.add('ALL', route.path, route.method)
      if (route.method === 'GET') built.add('ALL', route.path, 'HEAD')
    }
    return built
  }
  return (path) => {
    router ??= build()
    const methods = new Set(router.match('ALL', path)[0].map(([method]) => method))
    return [...methods]
  }
}
