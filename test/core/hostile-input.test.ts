import { describe, expect, it } from 'vitest'
import { contractApp, sendableInUrl } from '../helpers/contract.js'
import { bearer } from '../helpers/auth.js'

// Issue 40 §7: bad input that was a 500, a silent guess or the wrong 4xx. Each row is an exact status
// and Error body; contractApp runs them on the memory store, on Redis and behind nginx too.

const tokens = ['root-secret', 'sa=team-a-*']
const root = bearer('root-secret')
const scoped = bearer('sa')
const json = { 'Content-Type': 'application/json' }

const badPrefix = (shown: string) =>
  `The session in the path must be 1 to 64 of A-Z a-z 0-9 . _ -, not . or .. (got ${shown}).`

const expectError = async (res: Response, status: number, message: string | RegExp, code = 'bad_request') => {
  const body = (await res.json()) as { code: string; message: string; status: number }
  expect({ status: res.status, code: body.code, bodyStatus: body.status }).toEqual({ status, code, bodyStatus: status })
  if (typeof message === 'string') expect(body.message).toBe(message)
  else expect(body.message).toMatch(message)
  return body
}

describe('an invalid session name in the path prefix is a 400 on every route', () => {
  const names: [escaped: string, shown: string][] = [
    ['x%0a', '"/sessions/x\\n"'],
    ['x%00', '"/sessions/x\\u0000"'],
    ['x%0d%0a', '"/sessions/x\\r\\n"'],
    ['x%22%3E%3Cscript%3E', '"/sessions/x\\"\\u003e\\u003cscript\\u003e"'],
    ['x%20y', '"/sessions/x y"'],
    ['a'.repeat(65), `"/sessions/${'a'.repeat(65)}"`],
  ]
  const routes = [
    '/__admin',
    '/__admin/',
    '/__admin/health/live',
    '/__admin/state',
    '/openapi.json',
    '/openapi.yaml',
    '/v1/pets',
  ]
  for (const [escaped, shown] of names.filter(([escaped]) => sendableInUrl(decodeURIComponent(escaped)))) {
    for (const route of routes) {
      it(`GET /sessions/${escaped}${route}: 400 naming the name, no Location, not echoed`, async () => {
        const { request } = contractApp()
        // On /v1 authentication comes first (issue 39): an authenticated request gets the 400.
        const headers = route.startsWith('/v1') ? bearer() : {}
        const res = await request(`/sessions/${escaped}${route}`, { headers })
        expect(res.headers.get('location')).toBeNull()
        const text = await res.clone().text()
        expect(text).not.toContain('<script>')
        await expectError(res, 400, badPrefix(shown))
      })
    }
  }

  // 4.5 KB: behind nginx a longer request line is its own 414.
  it('a long name is shown cut', async () => {
    const { request } = contractApp()
    const res = await request(`/sessions/${'%22'.repeat(1500)}/__admin/state`)
    const body = await expectError(res, 400, /^The session in the path must be .* \(got "\/sessions\/(\\"){72}…"\)\.$/)
    expect(body.message.length).toBeLessThan(300)
  })

  it('with admin tokens, no token: the same 400 (the name is checked before anything else)', async () => {
    const { request } = contractApp({ adminTokens: tokens })
    await expectError(await request('/sessions/x%0a/__admin/faults'), 400, badPrefix('"/sessions/x\\n"'))
  })
})

describe('a scoped admin token gets the same 400 as root for a bad or conflicting session name', () => {
  const cases: [label: string, url: string, headers: Record<string, string>, code: string, message: string][] = [
    [
      'a bad X-Mock-Session',
      '/__admin/faults',
      { 'X-Mock-Session': 'x"' },
      'bad_request',
      'X-Mock-Session must be 1 to 64 of A-Z a-z 0-9 . _ -, not . or .. (got "x\\"").',
    ],
    [
      'a prefix and a header naming two sessions',
      '/sessions/team-a-1/__admin/faults',
      { 'X-Mock-Session': 'team-a-2' },
      'session_conflict',
      'The request names two sessions: the path prefix /sessions/team-a-1 and X-Mock-Session: team-a-2. Name one session, or the same one in each.',
    ],
    [
      'a conflict outside its scope',
      '/sessions/team-a-1/__admin/faults',
      { 'X-Mock-Session': 'team-b-1' },
      'session_conflict',
      'The request names two sessions: the path prefix /sessions/team-a-1 and X-Mock-Session: team-b-1. Name one session, or the same one in each.',
    ],
  ]
  for (const [label, url, headers, code, message] of cases) {
    for (const [who, token] of [
      ['root', root],
      ['scoped', scoped],
    ] as const) {
      it(`${label}, ${who} token: 400 ${code}`, async () => {
        const { request } = contractApp({ adminTokens: tokens })
        await expectError(await request(url, { headers: { ...token, ...headers } }), 400, message, code)
      })
    }
  }

  it('a wrong token with a bad name is still a 401', async () => {
    const { request } = contractApp({ adminTokens: tokens })
    const res = await request('/__admin/faults', { headers: { ...bearer('nope'), 'X-Mock-Session': 'x"' } })
    await expectError(res, 401, 'Invalid admin token.', 'unauthorized')
  })
})

describe('the control plane document is no session data', () => {
  it('a scoped token reads /__admin/openapi.json without a session: 200', async () => {
    const { request } = contractApp({ adminTokens: tokens })
    const res = await request('/__admin/openapi.json', { headers: scoped })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { openapi: string }).openapi).toBe('3.1.0')
  })

  it("a scoped token lists only its own sessions (issue 39) and is still refused another team's", async () => {
    const { request } = contractApp({ adminTokens: tokens })
    const list = await request('/__admin/sessions', { headers: scoped })
    expect(list.status).toBe(200)
    expect(((await list.json()) as { sessions: unknown[] }).sessions).toEqual([])
    expect((await request('/__admin/state', { headers: { ...scoped, 'X-Mock-Session': 'team-b-1' } })).status).toBe(403)
  })
})

describe('a query parameter of the control plane given twice is a 400, as on /v1', () => {
  const cases: [url: string, name: string][] = [
    ['/__admin/pact?consumer=a&consumer=b', 'consumer'],
    ['/__admin/pact?consumer=a&consumer=a', 'consumer'],
    ['/__admin/requests?limit=1&limit=2', 'limit'],
    ['/__admin/requests?operation=listPets&operation=getPet', 'operation'],
    ['/__admin/requests.har?status=200&status=404', 'status'],
  ]
  for (const [url, name] of cases) {
    it(`GET ${url}: 400`, async () => {
      const { request } = contractApp()
      await expectError(await request(url), 400, `${name} must be given at most once.`)
    })
  }
})

describe('two Authorization headers are a 400 naming the duplicate', () => {
  const twice = (first: string, second: string) => {
    const headers = new Headers({ Authorization: first })
    headers.append('Authorization', second)
    return headers
  }
  const message = (what: string) =>
    `The Authorization header is given more than once; send it once: Authorization: Bearer <${what}>.`

  it('on the control plane, the same token twice', async () => {
    const { request } = contractApp({ adminTokens: tokens })
    const res = await request('/__admin/faults', { headers: twice('Bearer root-secret', 'Bearer root-secret') })
    await expectError(res, 400, message('admin token'))
  })

  it('on the control plane, two tokens', async () => {
    const { request } = contractApp({ adminTokens: tokens })
    const res = await request('/__admin/faults', { headers: twice('Bearer sa', 'Bearer root-secret') })
    await expectError(res, 400, message('admin token'))
  })

  it('on /v1, a key and another scheme', async () => {
    const { request } = contractApp({ apiKeys: ['k'] })
    const res = await request('/v1/pets', { headers: twice('Bearer k', 'Basic dTpw') })
    await expectError(res, 400, message('API key'))
  })

  it('one header with auth-params is not a duplicate', async () => {
    const { request } = contractApp({ apiKeys: ['k'] })
    const res = await request('/v1/pets', { headers: { Authorization: 'Digest username="a", realm="b"' } })
    expect(res.status).toBe(401)
  })
})

describe('a body this mock would misread is a 415 naming what is supported', () => {
  const charset = (name: string) =>
    `charset=${JSON.stringify(name)} is not supported; send the body in UTF-8 (charset=utf-8, or no charset).`
  const encoding = (name: string) =>
    `Content-Encoding ${JSON.stringify(name)} is not supported; send the body unencoded (no Content-Encoding, or identity).`
  const utf16 = new Uint8Array(Buffer.from('{"status":503}', 'utf16le'))
  const cases: [label: string, url: string, init: RequestInit, message: string][] = [
    [
      'a fault rule in UTF-16',
      '/__admin/faults/r',
      { method: 'PUT', headers: { 'Content-Type': 'application/json; charset=utf-16' }, body: utf16 },
      charset('utf-16'),
    ],
    [
      'a fault rule in latin-1, quoted',
      '/__admin/faults/r',
      { method: 'PUT', headers: { 'Content-Type': 'application/json;charset="ISO-8859-1"' }, body: '{"status":503}' },
      charset('ISO-8859-1'),
    ],
    [
      'a gzip fault rule',
      '/__admin/faults/r',
      { method: 'PUT', headers: { ...json, 'Content-Encoding': 'gzip' }, body: '{"status":503}' },
      encoding('gzip'),
    ],
    [
      'a gzip pet',
      '/v1/pets',
      {
        method: 'POST',
        headers: { ...bearer('k'), ...json, 'Content-Encoding': 'gzip' },
        body: '{"name":"a","categoryId":1}',
      },
      encoding('gzip'),
    ],
    [
      'a UTF-16 pet',
      '/v1/pets',
      {
        method: 'POST',
        headers: { ...bearer('k'), 'Content-Type': 'application/json; charset=utf-16' },
        body: new Uint8Array(Buffer.from('{"name":"a","categoryId":1}', 'utf16le')),
      },
      charset('utf-16'),
    ],
    [
      'a snapshot in UTF-16',
      '/__admin/snapshot',
      { method: 'PUT', headers: { 'Content-Type': 'application/json; charset=utf-16' }, body: utf16 },
      charset('utf-16'),
    ],
  ]
  for (const [label, url, init, message] of cases) {
    it(`${label}: 415, nothing changed`, async () => {
      const { request } = contractApp({ apiKeys: ['k'] })
      const res = await request(url, init)
      if (res.status === 415 && message.startsWith('Content-Encoding')) {
        expect(res.headers.get('accept-encoding')).toBe('identity')
      }
      await expectError(res, 415, message, 'unsupported_media_type')
      expect(await (await request('/__admin/faults')).json()).toEqual({ faults: [] })
      const list = (await (await request('/v1/pets', { headers: bearer('k') })).json()) as unknown[]
      expect(list.some((pet) => (pet as { name: string }).name === 'a')).toBe(false)
    })
  }

  it('charset=utf-8 in any case, and identity, are read', async () => {
    const { request } = contractApp()
    for (const type of [
      'application/json; charset=UTF-8',
      'application/json;charset="utf-8"',
      'application/json; charset=utf8',
    ]) {
      const res = await request('/__admin/faults/r', {
        method: 'PUT',
        headers: { 'Content-Type': type, 'Content-Encoding': 'identity' },
        body: '{"status":503}',
      })
      expect([200, 201]).toContain(res.status)
    }
  })

  it('no body is still the 400 for a missing body', async () => {
    const { request } = contractApp()
    const res = await request('/__admin/faults/r', { method: 'PUT', headers: { ...json, 'Content-Encoding': 'gzip' } })
    await expectError(res, 400, /^Request body is required/)
  })
})

describe('provider states: params are checked, not ignored', () => {
  const setUp = (body: unknown): RequestInit => ({ method: 'POST', headers: json, body: JSON.stringify(body) })
  const cases: [label: string, body: unknown, message: string][] = [
    ['params.pets a string', { state: 'pets exist', params: { pets: 'x' } }, 'params.pets must be an array of pets.'],
    [
      'an unknown top-level field',
      { state: 'pets exist', extra: 1 },
      'extra is not a known field; expected { "state": …, "params": { … }, "action": "setup" | "teardown" }.',
    ],
    [
      'params.id other than the id the state names',
      { state: 'a pet with id 7 exists', params: { id: 8, name: 'Rex', categoryId: 1 } },
      'params.id is 8, but the state names the pet with id 7.',
    ],
    [
      'params.id other than the id of no pet',
      { state: 'no pet with id 7', params: { id: 8 } },
      'params.id is 8, but the state names the pet with id 7.',
    ],
    [
      'a param another state takes',
      { state: 'no pet with id 7', params: { pets: [] } },
      'params.pets is not a parameter of the state "no pet with id 7"; it takes id.',
    ],
    [
      'params.status other than the status the state names',
      { state: 'pets with status sold exist', params: { status: 'available' } },
      'params.status is "available", but the state names the status sold.',
    ],
    ['params.status not a string', { state: 'pets exist', params: { status: 5 } }, 'params.status must be a string.'],
    [
      'params on no pets',
      { state: 'no pets exist', params: { status: 'sold' } },
      'params.status is not a parameter of the state "no pets exist"; it takes none.',
    ],
  ]
  for (const [label, body, message] of cases) {
    it(`${label}: 400, nothing set up`, async () => {
      const { request } = contractApp({ apiKeys: ['k'] })
      const before = await (await request('/__admin/state')).text()
      const res = await request('/__admin/provider-states', setUp(body))
      await expectError(res, 400, message)
      expect(await (await request('/__admin/state')).text()).toBe(before)
    })
  }

  it('the params the mock writes into its pacts are still set up', async () => {
    const { request } = contractApp({ apiKeys: ['k'] })
    for (const body of [
      { state: 'a pet with id 7 exists', params: { id: 7, name: 'Rex', categoryId: 1 } },
      { state: 'no pet with id 9', params: { id: 9 } },
      {
        state: 'pets with status sold exist',
        params: { status: 'sold', pets: [{ id: 3, name: 'B', categoryId: 1, status: 'sold' }] },
      },
      { state: 'no pet with status sold exists', params: { status: 'sold' } },
      { state: 'no pets exist' },
    ]) {
      expect((await request('/__admin/provider-states', setUp(body))).status).toBe(200)
    }
  })
})

describe('a body that is a number too large to hold says what was expected', () => {
  const cases: [url: string, method: string, message: string][] = [
    ['/__admin/faults/r', 'PUT', 'A fault rule must be a JSON object.'],
    ['/__admin/faults', 'POST', 'A fault rule must be a JSON object.'],
    ['/__admin/clock', 'PUT', 'The body must be { "now"?: "<instant>", "frozen"?: boolean }.'],
    [
      '/__admin/provider-states',
      'POST',
      'The body must be a JSON object: { "state": …, "params": { … }, "action": "setup" | "teardown" }.',
    ],
  ]
  for (const [url, method, message] of cases) {
    it(`${method} ${url} 1e999: 400`, async () => {
      const { request } = contractApp()
      await expectError(await request(url, { method, headers: json, body: '1e999' }), 400, message)
    })
  }

  it('POST /v1/pets 1e999: 400, not "name is required"', async () => {
    const { request } = contractApp()
    const res = await request('/v1/pets', { method: 'POST', headers: { ...bearer('k'), ...json }, body: '1e999' })
    await expectError(res, 400, 'Request body must be a JSON object.')
  })
})

describe('. and .. name no session: every URL parser drops them from a path, so no prefix or admin route could name it', () => {
  const routes: [method: string, path: string][] = [
    ['GET', '/v1/pets'],
    ['POST', '/v1/pets'],
    ['GET', '/__admin/state'],
    ['POST', '/__admin/faults'],
    ['POST', '/__admin/reset'],
  ]
  for (const name of ['.', '..']) {
    for (const [method, path] of routes) {
      it(`X-Mock-Session: ${name} on ${method} ${path}: 400 naming the header; no session made`, async () => {
        const { request } = contractApp()
        const headers = { ...bearer(), ...json, 'X-Mock-Session': name }
        const body =
          method === 'POST'
            ? JSON.stringify(path === '/v1/pets' ? { name: 'Rex', categoryId: 1 } : { status: 503 })
            : undefined
        const res = await request(path, { method, headers, body })
        await expectError(
          res,
          400,
          `X-Mock-Session must be 1 to 64 of A-Z a-z 0-9 . _ -, not . or .. (got ${JSON.stringify(name)}).`,
        )
        const listed = (await (await request('/__admin/sessions')).json()) as { sessions: { name: string }[] }
        expect(listed.sessions.map((s) => s.name)).not.toContain(name)
      })
    }
  }

  it('other names of dots are names: ... and .a each their own session', async () => {
    const { request } = contractApp()
    for (const name of ['...', '.a']) {
      const res = await request('/v1/pets', {
        method: 'POST',
        headers: { ...bearer(), ...json, 'X-Mock-Session': name },
        body: JSON.stringify({ name: `Rex${name}`, categoryId: 1 }),
      })
      expect(res.status).toBe(201)
      const pets = (await (await request('/__admin/state', { headers: { 'X-Mock-Session': name } })).json()) as {
        pets: { name: string }[]
      }
      expect(pets.pets.filter((pet) => pet.name.startsWith('Rex'))).toEqual([
        expect.objectContaining({ name: `Rex${name}` }),
      ])
    }
  })
})

describe('a session name no session can have is a 400 on DELETE as on POST', () => {
  for (const escaped of ['team-a-1%00', 'team-a-1%0a', 'x%22y', 'a'.repeat(65)]) {
    for (const method of ['DELETE', 'POST']) {
      it.skipIf(!sendableInUrl(decodeURIComponent(escaped)))(
        `${method} /__admin/sessions/${escaped}: 400`,
        async () => {
          const { request } = contractApp()
          const res = await request(`/__admin/sessions/${escaped}`, { method })
          await expectError(res, 400, /^A session name is 1 to 64 of A-Z a-z 0-9 \. _ -, not \. or \.\. \(got /)
        },
      )
    }
  }
})
