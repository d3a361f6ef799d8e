import { describe, expect, it } from 'vitest'
import { keyFingerprint } from '../../src/core/http/request/key-fingerprint.js'
import { auth, postJson } from '../helpers/contract.js'
import { mockOrigin, useMswMock } from '../helpers/msw.js'

// Issue 32 in msw's setupServer: rules with their own answer, rules that target one client, hang and drip.
const { handlers, request } = useMswMock()
const raw = (path: string, init?: RequestInit) => fetch(`${mockOrigin}${path}`, init)

describe('fault rules in msw', () => {
  it('a rule with its own answer beyond the contract needs the mark, then answers the mobile app only', async () => {
    await expect(
      handlers.addFault({ operation: 'listPets', status: 502, body: '<h1>Bad gateway</h1>' }),
    ).rejects.toThrow(
      'addFault: This answer breaks the contract (listPets: 502 body is Content-Type text/plain; charset=utf-8, an error is application/json Error); to send it anyway, mark the rule breaksContract: true',
    )
    await handlers.addFault({
      operation: 'listPets',
      status: 502,
      headers: { 'Content-Type': 'text/html' },
      body: '<h1>Bad gateway</h1>',
      breaksContract: true,
      when: { headers: { 'User-Agent': 'mobile-app/1.0' } },
    })
    const mobile = await raw('/v1/pets', { headers: auth({ 'User-Agent': 'mobile-app/1.0' }) })
    expect(mobile.status).toBe(502)
    expect(mobile.headers.get('content-type')).toBe('text/html')
    expect(await mobile.text()).toBe('<h1>Bad gateway</h1>')
    expect((await request('/v1/pets', { headers: auth({ 'User-Agent': 'web' }) })).status).toBe(200)
    const [web, app] = await handlers.journal()
    expect(web!.shapedBy).toBeUndefined()
    expect(app!.shapedBy).toEqual([{ by: 'fault', ruleId: 1, status: 502, custom: true, breaksContract: true }])
  })

  it('targets a client by API key fingerprint, and a create by a body field', async () => {
    await handlers.addFault({
      operation: 'getPet',
      status: 404,
      when: { apiKey: { fingerprint: keyFingerprint('mobile') } },
    })
    await handlers.addFault({ operation: 'createPet', status: 400, when: { body: { name: 'Rex' } } })
    expect((await request('/v1/pets/1', { headers: auth({}, 'mobile') })).status).toBe(404)
    expect((await request('/v1/pets/1', { headers: auth({}, 'web') })).status).toBe(200)
    expect((await request('/v1/pets', postJson({ name: 'Rex', categoryId: 1 }))).status).toBe(400)
    expect((await request('/v1/pets', postJson({ name: 'Bo', categoryId: 1 }))).status).toBe(201)
    expect((await handlers.journal()).map((e) => e.apiKeyFingerprint)).toEqual([
      keyFingerprint('test-token'),
      keyFingerprint('test-token'),
      keyFingerprint('web'),
      keyFingerprint('mobile'),
    ])
  })

  it('hang: fetch waits until the client gives up (its signal), then rejects; the journal says reset', async () => {
    await handlers.addFault({ operation: 'listPets', fault: 'hang' })
    const start = performance.now()
    await expect(raw('/v1/pets', { headers: auth(), signal: AbortSignal.timeout(150) })).rejects.toThrow()
    expect(performance.now() - start).toBeGreaterThanOrEqual(140)
    await expect.poll(async () => (await handlers.journal())[0]?.status, { timeout: 2000 }).toBe(0)
    expect((await handlers.journal())[0]?.shapedBy).toEqual([{ by: 'fault', ruleId: 1, fault: 'hang' }])
  })

  it('hang with delayMs: the mock gives up first, a network error', async () => {
    await handlers.addFault({ operation: 'listPets', fault: 'hang', delayMs: 100 })
    await expect(raw('/v1/pets', { headers: auth() })).rejects.toThrow(TypeError)
  })

  it('drip: the whole body, in pieces', async () => {
    const whole = await (await raw('/v1/pets?limit=2', { headers: auth() })).text()
    await handlers.addFault({ operation: 'listPets', fault: 'drip' })
    const start = performance.now()
    const res = await raw('/v1/pets?limit=2', { headers: auth() })
    expect(await res.text()).toBe(whole)
    expect(performance.now() - start).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(whole) / 64) * 100 - 20)
  })
})

describe('rules by name in msw', () => {
  it('putFault sets a rule idempotently, replaces it in place; removeFault takes a name or an id; PUT over HTTP too', async () => {
    expect(await handlers.putFault('flaky', { operation: 'listPets', status: 503, times: 2 })).toEqual({
      rule: { id: 1, name: 'flaky', operation: 'listPets', status: 503, times: 2, remaining: 2 },
      created: true,
    })
    await handlers.addFault({ operation: 'listPets', status: 500 })
    expect(await handlers.putFault('flaky', { operation: 'listPets', status: 502 })).toEqual({
      rule: { id: 1, name: 'flaky', operation: 'listPets', status: 502 },
      created: false,
    })
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(502)
    const put = await request('/__admin/faults/flaky', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ operation: 'listPets', status: 504 }),
    })
    expect(put.status).toBe(200)
    expect(await put.json()).toEqual({ id: 1, name: 'flaky', operation: 'listPets', status: 504 })
    expect(await handlers.faults()).toEqual([
      { id: 1, name: 'flaky', operation: 'listPets', status: 504 },
      { id: 2, operation: 'listPets', status: 500 },
    ])
    expect(await handlers.removeFault('flaky')).toBe(true)
    expect(await handlers.removeFault('flaky')).toBe(false)
    expect(await handlers.removeFault(2)).toBe(true)
    expect(await handlers.faults()).toEqual([])
    await expect(handlers.putFault('12', { status: 500 })).rejects.toThrow(
      'putFault: name "12" is digits only, which is a rule id; a name needs another character',
    )
    await expect(handlers.putFault('a', { status: 302 })).rejects.toThrow('putFault: status must be')
  })
})
