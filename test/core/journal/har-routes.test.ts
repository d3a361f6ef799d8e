import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { auth, contractApp, postJson } from '../../helpers/contract.js'
import { onePet } from '../../helpers/fixtures.js'
import { bearer } from '../../helpers/auth.js'
import { packageVersion } from '../../../src/generated/contract.js'

// har-validator is CommonJS: rejects with { errors } (Ajv's) when the document breaks the HAR 1.2 schema.
const harValidator = createRequire(import.meta.url)('har-validator') as { har(data: unknown): Promise<unknown> }

const pets = onePet()

describe('GET /__admin/requests.har', () => {
  it('is a valid HAR 1.2 download of the journal, oldest first, with requests, answers and shaping', async () => {
    const { app, request } = contractApp({ pets })
    await request('/v1/pets?limit=5&status=sold', { headers: auth() })
    await request('/v1/pets', postJson({ name: 'ü', categoryId: 2 }))
    await request('/v1/pets/1', { headers: auth({ Prefer: 'code=503' }) })
    await request('/__admin/faults', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ fault: 'connection_reset', times: 1 }),
    })
    await expect(app.request('/v1/pets', { headers: auth() })).rejects.toThrow()

    const res = await request('/__admin/requests.har', { headers: { 'X-Mock-Session': 'default' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="petstore-mock-default-\d{8}T\d{6}Z\.har"$/,
    )
    const har = await res.json()
    await expect(harValidator.har(har)).resolves.toBeTruthy()
    expect(har.log.version).toBe('1.2')
    expect(har.log.creator).toEqual({ name: 'petstore-mock', version: packageVersion })
    const [listed, created, forced, reset] = har.log.entries
    expect(har.log.entries).toHaveLength(4)

    expect(listed.request).toMatchObject({
      method: 'GET',
      url: 'http://localhost/v1/pets?limit=5&status=sold',
      httpVersion: 'HTTP/1.1',
      queryString: [
        { name: 'limit', value: '5' },
        { name: 'status', value: 'sold' },
      ],
      bodySize: 0,
    })
    expect(listed.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer te…' })
    expect(listed.response).toMatchObject({
      status: 200,
      statusText: 'OK',
      content: { mimeType: 'application/json', text: '[]', size: 2 },
    })
    expect(Date.parse(listed.startedDateTime)).toBeLessThanOrEqual(Date.parse(created.startedDateTime))
    expect(listed.timings.wait).toBe(listed.time)

    const body = '{"name":"ü","categoryId":2}'
    expect(created.request.postData).toEqual({ mimeType: 'application/json', text: body })
    expect(created.request.bodySize).toBe(new TextEncoder().encode(body).length)
    expect(created.response).toMatchObject({ status: 201, statusText: 'Created', redirectURL: '' })
    expect(created.response.headers).toContainEqual({ name: 'location', value: '/v1/pets/2' })
    expect(JSON.parse(created.response.content.text)).toEqual({ id: 2, name: 'ü', categoryId: 2 })

    expect(forced._shapedBy).toEqual([{ by: 'override', status: 503 }])
    expect(forced.response.status).toBe(503)
    expect(reset.response).toMatchObject({ status: 0, content: { size: 0 } })
    expect(reset._shapedBy).toEqual([{ by: 'fault', ruleId: 1, fault: 'connection_reset' }])
    expect(JSON.stringify(har)).not.toContain('test-token')
  })

  it('takes the filters of /__admin/requests: the newest `limit` matching entries, oldest first', async () => {
    const { request } = contractApp({ pets })
    for (const id of [1, 2, 1, 3]) await request(`/v1/pets/${id}`, { headers: auth() })
    const har = await (await request('/__admin/requests.har?status=404&limit=1')).json()
    expect(har.log.entries.map((e: { request: { url: string } }) => e.request.url)).toEqual([
      'http://localhost/v1/pets/3',
    ])
    const all = await (await request('/__admin/requests.har?operation=getPet')).json()
    expect(all.log.entries.map((e: { response: { status: number } }) => e.response.status)).toEqual([
      200, 404, 200, 404,
    ])
    const bad = await request('/__admin/requests.har?limit=0')
    expect(bad.status).toBe(400)
    expect((await bad.json()).message).toBe('limit must be an integer between 1 and 1000000 (got "0").')
  })

  it('marks cut bodies with a comment and the size actually sent', async () => {
    const { request } = contractApp({ pets })
    // Names are at most 1,000 characters: an ignored field makes the request long, five pets the list.
    const body = { name: 'x'.repeat(1000), categoryId: 1, pad: 'y'.repeat(5000) }
    for (let i = 0; i < 5; i++) await request('/v1/pets', postJson(body))
    await request('/v1/pets', { headers: auth() })
    const { entries } = (await (await request('/__admin/requests.har')).json()).log
    const created = entries.find((e: { request: { method: string } }) => e.request.method === 'POST')
    expect(created.request.postData.text).toHaveLength(4096)
    expect(created.request.postData.comment).toMatch(/cut to its first 4096 characters/)
    expect(created.request.bodySize).toBe(JSON.stringify(body).length)
    const listed = entries.find((e: { request: { method: string } }) => e.request.method === 'GET')
    expect(listed.response.content.comment).toMatch(/cut/)
    expect(listed.response.content.size).toBe(listed.response.bodySize)
  })

  it('is behind the admin token and per session', async () => {
    const { request } = contractApp({ pets, adminToken: 'adm' })
    expect((await request('/__admin/requests.har')).status).toBe(401)
    await request('/v1/pets', { headers: auth({ 'X-Mock-Session': 's1' }) })
    const admin = bearer('adm')
    const s1 = await (await request('/__admin/requests.har', { headers: { ...admin, 'X-Mock-Session': 's1' } })).json()
    const other = await (await request('/__admin/requests.har', { headers: admin })).json()
    expect([s1.log.entries.length, other.log.entries.length]).toEqual([1, 0])
  })
})
