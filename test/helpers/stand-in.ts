import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { type AppOptions, createApp } from '../../src/core/app.js'

/** The ways the stand-in departs from the contract, one at a time. */
export const drifts = [
  'missing-field',
  'wrong-status',
  'error-missing-field',
  'text-not-json',
  'no-deprecation',
  'id-type',
  'limit-422',
] as const
export type Drift = (typeof drifts)[number]

/** A "real service" on a loopback socket. */
export interface StandIn {
  url: string
  /** Requests it received. */
  requests: () => number
  /** Of which POSTs. */
  posts: () => number
  close(): Promise<void>
}

const json = (body: unknown, res: Response, status = res.status): Response => {
  const headers = new Headers(res.headers)
  headers.delete('content-length')
  return new Response(JSON.stringify(body), { status, headers })
}

/** What the stand-in does to the mock's answer to `request`, for its drift. */
const distort = async (drift: Drift | undefined, request: Request, res: Response): Promise<Response> => {
  const url = new URL(request.url)
  const list = request.method === 'GET' && url.pathname === '/v1/pets'
  const isJson = res.headers.get('content-type') === 'application/json'
  switch (drift) {
    case 'missing-field':
      if (!list || res.status !== 200) return res
      return json(
        ((await res.json()) as Record<string, unknown>[]).map(({ categoryId: _, ...pet }) => pet),
        res,
      )
    case 'wrong-status':
      return request.method === 'POST' && res.status === 201 ? json(await res.json(), res, 200) : res
    case 'error-missing-field': {
      if (res.status < 400 || !isJson) return res
      const { message: _, ...rest } = (await res.json()) as Record<string, unknown>
      return json(rest, res)
    }
    case 'text-not-json':
      if (!list || res.status !== 200) return res
      return new Response(`pets: ${await res.text()}`, { status: 200, headers: { 'content-type': 'text/plain' } })
    case 'no-deprecation': {
      const headers = new Headers(res.headers)
      headers.delete('deprecation')
      return new Response(res.body, { status: res.status, headers })
    }
    case 'id-type': {
      if (res.status >= 300 || !isJson || !url.pathname.startsWith('/v1/pets')) return res
      const body = (await res.json()) as { id: number } | { id: number }[]
      const stringId = (pet: { id: number }) => ({ ...pet, id: String(pet.id) })
      return json(Array.isArray(body) ? body.map(stringId) : stringId(body), res)
    }
    case 'limit-422':
      if (!list || res.status !== 400 || !url.searchParams.has('limit')) return res
      return json({ code: 'unprocessable', message: 'limit out of range', status: 422 }, res, 422)
    default:
      return res
  }
}

/**
 * A stand-in for the real service: the mock (with `options`, e.g. other
 * readings of the spec's silences) whose answers are distorted in one known
 * way, served over a real socket on 127.0.0.1, port 0.
 */
export const startStandIn = (drift?: Drift, options: AppOptions = {}): Promise<StandIn> => {
  const app = createApp(options)
  let requests = 0
  let posts = 0
  return new Promise((resolve) => {
    const server = serve(
      {
        fetch: async (request: Request) => {
          requests++
          if (request.method === 'POST') posts++
          return distort(drift, request, await app.fetch(request))
        },
        hostname: '127.0.0.1',
        port: 0,
      },
      (info: AddressInfo) =>
        resolve({
          url: `http://127.0.0.1:${info.port}`,
          requests: () => requests,
          posts: () => posts,
          close: () =>
            new Promise<void>((done) => {
              ;(server as Server).closeAllConnections()
              server.close(() => done())
            }),
        }),
    )
  })
}
