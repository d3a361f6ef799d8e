import { describe, expect, it } from 'vitest'
import { createMockClient } from '../../src/client/mock-client.js'
import { MockAdminError } from '../../src/client/mock-admin-error.js'
import { lazyMockClient } from '../../src/msw/lazy-client.js'

// The shape of a client: each call by its path, each group's keys.
const shapeOf = (value: object, path = ''): string[] =>
  Object.entries(value).flatMap(([name, entry]) =>
    typeof entry === 'function'
      ? [`${path}${name}()`]
      : entry !== null && typeof entry === 'object'
        ? shapeOf(entry as object, `${path}${name}.`)
        : [`${path}${name}`],
  )

describe("the msw controls' client, loaded on its first call", () => {
  const sent: { method: string; url: string; session: string | null; body: string | null }[] = []
  const options = {
    baseUrl: 'http://127.0.0.1',
    adminToken: 'secret',
    fetch: async (url: string | URL, init?: RequestInit) => {
      sent.push({
        method: init?.method ?? 'GET',
        url: String(url),
        session: new Headers(init?.headers).get('X-Mock-Session'),
        body: (init?.body as string | undefined) ?? null,
      })
      if (String(url).endsWith('/faults/missing')) {
        return Response.json({ code: 'not_found', message: 'No rule missing.', status: 404 }, { status: 404 })
      }
      return Response.json({ faults: [{ id: 1 }] })
    },
  }

  it('has every call of the real client, by the same paths', () => {
    expect(shapeOf(lazyMockClient(options)).sort()).toEqual(shapeOf(createMockClient(options)).sort())
  })

  it('sends what the real client sends, answers what it answers, and bound to a session names it', async () => {
    sent.length = 0
    await expect(lazyMockClient(options).faults.list()).resolves.toEqual([{ id: 1 }])
    await lazyMockClient(options).withSession('team-a').faults.list()
    const lazy = [...sent]
    sent.length = 0
    await createMockClient(options).faults.list()
    await createMockClient(options).withSession('team-a').faults.list()
    expect(lazy).toEqual(sent)
    expect(lazy.map((request) => request.session)).toEqual([null, 'team-a'])
    expect(lazyMockClient(options).withSession('team-a').session).toBe('team-a')
  })

  it("rejects with the real client's MockAdminError", async () => {
    const error = await lazyMockClient(options)
      .faults.remove('missing')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MockAdminError)
    expect((error as MockAdminError).status).toBe(404)
  })
})
