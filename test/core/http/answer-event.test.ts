import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { ConnectionResetError } from '../../../src/core/http/errors.js'
import { builtAnswer, respond } from '../../../src/core/http/respond.js'
import {
  type AnswerListener,
  answerAsBuilt,
  answerEvent,
  chain,
  fromMiddleware,
  type OnError,
  type Stage,
} from '../../../src/core/http/stage.js'

const onError: OnError = (error) => {
  if (error instanceof ConnectionResetError) throw error
  return new Response(error.message, { status: 500 })
}

/** A listener that writes what it is told into `log`, and waits `wait` ms before it settles when asked. */
const listener = (name: string, log: string[], wait?: number): AnswerListener => ({
  begin: () => log.push(`${name} begins`),
  answered: (_c, res) => {
    log.push(`${name} told ${res === undefined ? 'none' : res.status}`)
    if (wait === undefined) return undefined
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        log.push(`${name} settled`)
        resolve()
      }, wait),
    )
  },
})

/** An app whose one route runs `stages`, then `last`. */
const appOf = (stages: (Stage | undefined)[], last: (c: Parameters<Stage>[0]) => Response | Promise<Response>) => {
  const app = new Hono()
  app.get('/x', chain(stages, last))
  app.onError((error) => {
    if (error instanceof ConnectionResetError) return new Response('reset', { status: 599 })
    throw error
  })
  return app
}

describe('the answer event', () => {
  it('is no stage at all without listeners', () => {
    expect(answerEvent([undefined, undefined], onError)).toBeUndefined()
  })

  it('tells every listener that the request begins, then the answer, in order, each after the one before settled', async () => {
    const log: string[] = []
    const event = answerEvent(
      [listener('coverage', log), listener('journal', log, 5), listener('metrics', log)],
      onError,
    )
    const app = appOf([event], () => {
      log.push('handler')
      return new Response('ok', { status: 201 })
    })
    const res = await app.request('/x')
    log.push('answer out')
    expect(res.status).toBe(201)
    expect(log).toEqual([
      'coverage begins',
      'journal begins',
      'metrics begins',
      'handler',
      'coverage told 201',
      'journal told 201',
      'journal settled',
      'metrics told 201',
      'answer out',
    ])
  })

  it('answers without a promise when the chain and every listener do', () => {
    const log: string[] = []
    const event = answerEvent([listener('journal', log)], onError)!
    const vars = new Map<string, unknown>()
    const c = { get: (key: string) => vars.get(key), set: (key: string, value: unknown) => vars.set(key, value) }
    const answer = event(c as never, () => new Response(null, { status: 204 }))
    expect(answer).toBeInstanceOf(Response)
    expect(log).toEqual(['journal begins', 'journal told 204'])
  })

  it('tells an error answered by onError as that answer, and a reset connection as none, thrown or rejected', async () => {
    const log: string[] = []
    const event = answerEvent([listener('journal', log)], onError)
    const failing = appOf([event], () => {
      throw new Error('boom')
    })
    expect((await failing.request('/x')).status).toBe(500)
    const thrown = appOf([event], () => {
      throw new ConnectionResetError('reset')
    })
    expect((await thrown.request('/x')).status).toBe(599)
    const rejected = appOf([event], () => Promise.reject(new ConnectionResetError('reset')))
    expect((await rejected.request('/x')).status).toBe(599)
    expect(log.filter((line) => line.includes('told'))).toEqual([
      'journal told 500',
      'journal told none',
      'journal told none',
    ])
  })

  it('lets a listener see the answer as built when a hono middleware (CORS) sent a copy of it', async () => {
    let seen: Response | undefined
    const event = answerEvent([{ answered: (_c, res) => void (seen = res) }], onError)
    // A middleware that sets a header after the rest has answered: hono copies the answer to set it.
    const copying = fromMiddleware(async (c, next) => {
      await next()
      c.header('x-added', 'yes')
    }, onError)
    const app = appOf([event, copying], (c) => respond(c, '[]', 200, { 'content-type': 'application/json' }))
    const res = await app.request('/x')
    expect(res.headers.get('x-added')).toBe('yes')
    expect(seen).toBeDefined()
    expect(builtAnswer(seen!)).toBeUndefined()
    expect(builtAnswer(answerAsBuilt(seen!))).toMatchObject({ text: '[]', json: true })
    expect(await res.text()).toBe('[]')
  })
})
