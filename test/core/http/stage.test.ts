import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from '../../../src/core/app.js'
import { ApiError } from '../../../src/core/http/errors.js'
import { handleError } from '../../../src/core/http/respond.js'
import { createLogger } from '../../../src/core/log/log.js'
import { fromMiddleware, type Stage, toMiddleware } from '../../../src/core/http/stage.js'

/** An app whose one route runs `stage` (as hono middleware) before a handler answering 'handler'. */
const appWith = (stage: Stage) => {
  const app = new Hono<AppEnv>()
  app.onError(handleError(createLogger('silent')))
  app.get('/', toMiddleware(stage), (c) => c.text('handler', 200, { 'X-Handler': '1' }))
  return app
}

describe('toMiddleware (a stage as hono middleware)', () => {
  it('passes through: the rest of the hono chain is the stage’s next, and it sees the answer', async () => {
    const res = await appWith((c, next) => {
      const answer = next(c)
      return answer instanceof Promise ? answer.then((r) => new Response(`seen ${r.status}`, r)) : answer
    }).request('/')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('seen 200')
    expect(res.headers.get('x-handler')).toBe('1')
  })

  it('answers itself: the handler never runs', async () => {
    const res = await appWith(() => new Response('stage', { status: 202 })).request('/')
    expect([res.status, await res.text()]).toEqual([202, 'stage'])
  })

  it('throws to the app’s error handler, as a stage of a chain does', async () => {
    const res = await appWith(() => {
      throw new ApiError(409, 'Taken.')
    }).request('/')
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ code: 'conflict', message: 'Taken.', status: 409 })
  })

  it('round-trips with fromMiddleware', async () => {
    const onError = handleError(createLogger('silent'))
    const stage: Stage = (c, next) => (c.req.header('X-Stop') ? new Response('stopped', { status: 409 }) : next(c))
    const app = new Hono<AppEnv>()
    app.get('/', (c) => fromMiddleware(toMiddleware(stage), onError)(c, () => new Response('end')))
    expect(await (await app.request('/')).text()).toBe('end')
    expect((await app.request('/', { headers: { 'X-Stop': '1' } })).status).toBe(409)
  })
})
