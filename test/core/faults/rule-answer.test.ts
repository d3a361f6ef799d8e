import { describe, expect, it } from 'vitest'
import { maxAnswerChars } from '../../../src/core/faults/rule-answer.js'
import type { JournalEntry } from '../../../src/core/journal/journal-entry.js'
import type { Har } from '../../../src/core/journal/har.js'
import { auth, contractApp, postJson } from '../../helpers/contract.js'

const pets = [
  { id: 1, name: 'Biscuit', categoryId: 1, status: 'available' as const },
  { id: 2, name: 'Luna', categoryId: 2 },
]
const admin = (body: unknown, method = 'POST', session?: string): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json', ...(session && { 'X-Mock-Session': session }) },
  body: JSON.stringify(body),
})
const html = '<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>'
type Mock = ReturnType<typeof contractApp>

const addRule = async (request: Mock['request'], rule: unknown) => {
  const res = await request('/__admin/faults', admin(rule))
  return { status: res.status, body: (await res.json()) as { message?: string; id?: number } }
}
const journal = async (request: Mock['request']) =>
  ((await (await request('/__admin/requests')).json()) as { requests: JournalEntry[] }).requests

describe('a rule with its own answer', () => {
  it('refuses an answer the contract does not allow unless marked breaksContract, naming the mark (the issue: an HTML 500)', async () => {
    const { request } = contractApp({ pets })
    const refused = await addRule(request, { operation: 'listPets', status: 500, body: html })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe(
      'This answer breaks the contract (listPets: 500 body is Content-Type text/plain; charset=utf-8, an error is application/json Error); to send it anyway, mark the rule breaksContract: true.',
    )
    expect((await request('/__admin/faults')).status).toBe(200)
    expect(await (await request('/__admin/faults')).json()).toEqual({ faults: [] })
  })

  it('sends a marked answer exactly: any status, its headers, its body as text', async () => {
    const { app, request } = contractApp({ pets })
    const rule = {
      operation: 'listPets',
      status: 502,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'X-Served-By': 'edge-gw-3' },
      body: html,
      breaksContract: true,
    }
    const added = await addRule(request, rule)
    expect(added).toEqual({ status: 201, body: { id: 1, ...rule } })
    // app.request: this answer breaks the contract on purpose, so the contract check of `request` is skipped.
    const res = await app.request('/v1/pets', { headers: auth() })
    expect(res.status).toBe(502)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('x-served-by')).toBe('edge-gw-3')
    expect(await res.text()).toBe(html)
    const [entry] = await journal(request)
    expect(entry).toMatchObject({
      status: 502,
      shapedBy: [{ by: 'fault', ruleId: 1, status: 502, custom: true, breaksContract: true }],
      response: { status: 502, body: html },
    })
  })

  it('a 200 whose body the schema refuses (a pet without categoryId) needs the mark; then it is sent as JSON', async () => {
    const { app, request } = contractApp({ pets })
    const body = [{ id: 1, name: 'Biscuit' }, ...pets.slice(1)]
    const refused = await addRule(request, { operation: 'listPets', status: 200, body })
    expect(refused.body.message).toBe(
      'This answer breaks the contract (listPets: item 0 lacks required categoryId, the contract says a Pets); to send it anyway, mark the rule breaksContract: true.',
    )
    expect((await addRule(request, { operation: 'listPets', status: 200, body, breaksContract: true })).status).toBe(
      201,
    )
    const res = await app.request('/v1/pets', { headers: auth() })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual(body)
  })

  it.each([
    ['a 200 listPets body that validates', { operation: 'listPets', status: 200, body: [pets[1]] }],
    [
      'a 201 createPet body that validates',
      { operation: 'createPet', status: 201, body: { id: 99, name: 'Rex', categoryId: 3 } },
    ],
    [
      'a documented error with an Error body',
      { operation: 'getPet', status: 404, body: { code: 'not_found', message: 'Gone fishing.', status: 404 } },
    ],
    [
      'a status the mock injects (503) with an Error body and headers',
      {
        status: 503,
        headers: { 'Retry-After': '30' },
        body: { code: 'service_unavailable', message: 'Maintenance.', status: 503 },
      },
    ],
  ])('keeps the contract, so needs no mark: %s', async (_, rule) => {
    const { request } = contractApp({ pets })
    expect((await addRule(request, rule)).status).toBe(201)
    const op = (rule as { operation?: string }).operation
    const url = op === 'getPet' ? '/v1/pets/1' : '/v1/pets'
    // `request` checks the answer against the contract.
    const res = await request(url, op === 'createPet' ? postJson({ name: 'Rex', categoryId: 3 }) : { headers: auth() })
    expect(res.status).toBe(rule.status)
    expect(await res.json()).toEqual(rule.body)
    expect((await journal(request))[0]?.shapedBy).toEqual([
      { by: 'fault', ruleId: 1, status: rule.status, custom: true },
    ])
  })

  it('a 201 from a rule creates nothing: the answer is the rule’s, the operation does not run', async () => {
    const { request } = contractApp({ pets })
    await addRule(request, { operation: 'createPet', status: 201, body: { id: 99, name: 'Rex', categoryId: 3 } })
    await request('/v1/pets', postJson({ name: 'Rex', categoryId: 3 }))
    expect(await (await request('/v1/pets', { headers: auth() })).json()).toEqual(pets)
  })

  it.each([
    [
      { operation: 'getPet', status: 404, body: { code: 'not_found', message: 'x', status: 400 } },
      'getPet: Error.status is 400 on a 404 answer',
    ],
    [
      { operation: 'listPets', status: 418, body: { code: 'teapot', message: 'x', status: 418 } },
      'listPets: 418 is a status the contract does not document (200, 401)',
    ],
    [
      { operation: 'listPets', status: 200, headers: { 'Content-Type': 'application/xml' }, body: '<pets/>' },
      'listPets: 200 body is Content-Type application/xml ("<pets/>"), the contract says application/json Pets',
    ],
    [
      { operation: 'getPet', status: 200, body: '{"id":1', headers: { 'Content-Type': 'application/json' } },
      'getPet: 200 body is not JSON ("{"id":1")',
    ],
    [{ status: 200, body: [] }, 'createPet: 200 is a status the contract does not document (201, 400, 401)'],
    [
      { operation: 'listPets', status: 500, headers: { 'X-Reason': 'none' } },
      'listPets: 500 body is without Content-Type, an error is application/json Error',
    ],
  ])('refuses %j without the mark: %s', async (rule, why) => {
    const { request } = contractApp({ pets })
    const refused = await addRule(request, rule)
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe(
      `This answer breaks the contract (${why}); to send it anyway, mark the rule breaksContract: true.`,
    )
  })

  it.each([
    [{ status: 200 }, 'status must be an integer between 400 and 599.'],
    [{ status: 199, body: 'x' }, 'status must be an integer between 200 and 599.'],
    [{ body: 'x' }, 'status is required with body or headers: the status of the answer.'],
    [{ fault: 'drip', body: 'x' }, 'body cannot be combined with fault.'],
    [{ breaksContract: true, status: 500 }, 'breaksContract applies to a rule with its own answer (body or headers).'],
    [{ status: 204, body: 'x', breaksContract: true }, 'body cannot be sent with status 204, which has none.'],
    [
      { status: 502, headers: { 'Content-Length': '5' }, breaksContract: true },
      'headers.Content-Length is written by the server, not by a rule.',
    ],
    [
      { status: 502, headers: { 'x-a': '1', 'X-A': '2' }, breaksContract: true },
      'headers names x-a twice (names are case-insensitive).',
    ],
    [{ status: 502, headers: { 'bad name': '1' }, breaksContract: true }, 'headers: "bad name" is not a header name.'],
    [
      { status: 502, headers: { 'x-a': 'one\r\ntwo' }, breaksContract: true },
      'headers.x-a must be a header value: no line breaks, control characters, characters beyond U+00FF or surrounding spaces.',
    ],
    [{ status: 502, headers: { 'x-a': 1 }, breaksContract: true }, 'headers.x-a must be a string.'],
    [{ status: 502, body: 'x', breaksContract: 'yes' }, 'breaksContract must be true or false.'],
  ])('refuses %j: %s', async (rule, message) => {
    const { request } = contractApp({ pets })
    const refused = await addRule(request, rule)
    expect(refused).toEqual({ status: 400, body: { code: 'bad_request', message, status: 400 } })
  })

  it(`refuses a body beyond ${maxAnswerChars} characters as sent`, async () => {
    const { request } = contractApp({ pets })
    const big = { status: 502, body: 'x'.repeat(maxAnswerChars + 1), breaksContract: true }
    expect((await addRule(request, big)).body.message).toBe(
      `body must be at most ${maxAnswerChars} characters as sent (got ${maxAnswerChars + 1}).`,
    )
    // JSON counts as serialised.
    const json = {
      status: 200,
      operation: 'listPets',
      body: Array.from({ length: 2000 }, (_, i) => ({ id: i + 1, name: 'Luna', categoryId: 2 })),
    }
    expect((await addRule(request, json)).body.message).toMatch(
      /^body must be at most 32768 characters as sent \(got \d+\)\.$/,
    )
  })

  it('keeps the digits of a number JavaScript cannot hold: refused as JSON, sent as they are as text', async () => {
    const { app, request } = contractApp({ pets })
    const json = '{"operation":"getPet","status":200,"body":{"id":1,"name":"Biscuit","categoryId":9007199254740993}}'
    const refused = await request('/__admin/faults', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: json,
    })
    expect(((await refused.json()) as { message: string }).message).toBe(
      'body.categoryId is a number JavaScript cannot hold exactly; to send its digits as they are, give the body as text with Content-Type application/json.',
    )
    const text = '{"id":1,"name":"Biscuit","categoryId":9007199254740993}'
    const added = await addRule(request, {
      operation: 'getPet',
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: text,
      breaksContract: true,
    })
    expect(added.status).toBe(201)
    expect(await (await app.request('/v1/pets/1', { headers: auth() })).text()).toBe(text)
  })

  it('adds the headers every answer of the operation carries (getPet: deprecation) to its own answer', async () => {
    const { request } = contractApp({ pets })
    await addRule(request, {
      operation: 'getPet',
      status: 404,
      body: { code: 'not_found', message: 'Nope.', status: 404 },
    })
    const res = await request('/v1/pets/1', { headers: auth() })
    expect(res.status).toBe(404)
    expect(res.headers.get('deprecation')).toBe('@0')
    expect(res.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  })

  it('flags a contract-breaking answer in the HAR, so that nobody takes it for the provider’s', async () => {
    const { app, request } = contractApp({ pets })
    await addRule(request, {
      operation: 'listPets',
      status: 502,
      body: html,
      headers: { 'content-type': 'text/html' },
      breaksContract: true,
      times: 1,
    })
    await addRule(request, { operation: 'listPets', status: 200, body: [], times: 1 })
    await app.request('/v1/pets', { headers: auth() })
    await request('/v1/pets', { headers: auth() })
    const har = (await (await request('/__admin/requests.har')).json()) as Har
    const [first, second] = har.log.entries
    expect(first!.response.comment).toBe(
      "Beyond the contract: fault rule 1 sent its own answer, marked breaksContract; not the provider's behaviour.",
    )
    expect(first!._shapedBy).toEqual([{ by: 'fault', ruleId: 1, status: 502, custom: true, breaksContract: true }])
    expect(first!.response.content).toMatchObject({ mimeType: 'text/html', text: html })
    expect(second!.response.comment).toBeUndefined()
  })

  it('flags it on the event stream too: the entry as the stream sends it carries the mark', async () => {
    const { app, request } = contractApp({ pets })
    await addRule(request, {
      operation: 'listPets',
      status: 503,
      headers: { 'content-type': 'text/html' },
      body: html,
      breaksContract: true,
    })
    const stream = await app.request('/__admin/requests/stream')
    expect(stream.status).toBe(200)
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader()
    await app.request('/v1/pets', { headers: auth() })
    let text = ''
    for (let i = 0; i < 20 && !text.includes('event: request'); i++) text += (await reader.read()).value ?? ''
    while (!/\n\n$/.test(text)) text += (await reader.read()).value ?? ''
    await reader.cancel()
    const data = JSON.parse(/^data: (.*)$/m.exec(text)![1]!) as JournalEntry
    expect(data.shapedBy).toEqual([{ by: 'fault', ruleId: 1, status: 503, custom: true, breaksContract: true }])
    expect(data.response).toMatchObject({ status: 503, body: html })
  })

  it('round-trips through a snapshot: the rules come back as they were and answer alike', async () => {
    const { app, request } = contractApp({ pets })
    const rules = [
      {
        operation: 'listPets',
        status: 502,
        headers: { 'content-type': 'text/html' },
        body: html,
        breaksContract: true,
        when: { headers: { 'user-agent': 'mobile-app/1.0' } },
        times: 3,
      },
      {
        operation: 'getPet',
        status: 200,
        body: { id: 1, name: 'Biscuit', categoryId: 1 },
        when: { apiKey: { fingerprint: 'sha256:4c5dc9b77089' } },
      },
      { operation: 'createPet', fault: 'hang', delayMs: 10, when: { body: { name: 'Rex' } } },
      { operation: 'listPets', fault: 'drip', when: { query: { status: 'sold' } }, probability: 0.5 },
    ]
    for (const rule of rules) expect((await addRule(request, rule)).status).toBe(201)
    const snapshot = await (await request('/__admin/snapshot', { headers: { Accept: 'application/json' } })).json()
    const restored = await request('/__admin/snapshot', admin(snapshot, 'PUT', 'copy'))
    expect(restored.status).toBe(204)
    const copy = await (await request('/__admin/faults', { headers: { 'X-Mock-Session': 'copy' } })).json()
    expect(copy).toEqual(await (await request('/__admin/faults')).json())
    expect((copy as { faults: unknown[] }).faults).toEqual(
      rules.map((rule, i) => ({ id: i + 1, ...rule, ...(rule.times && { remaining: rule.times }) })),
    )
    const res = await app.request('/v1/pets', {
      headers: { ...auth(), 'X-Mock-Session': 'copy', 'User-Agent': 'mobile-app/1.0' },
    })
    expect(res.status).toBe(502)
    expect(await res.text()).toBe(html)
  })
})
