import { describe, expect, it } from 'vitest'
import { fixturePets } from '../../src/generated/contract.js'
import { assertContract, documentedStatuses } from './contract.js'

// The helper most suites check every answer with (contractApp, assertContract): it must fail on a status
// nobody documented, of any class, and let the documented ones pass.

const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } })
const error = (status: number, code: string) => json({ code, message: 'x.', status }, status)
const empty = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers })
const pet = fixturePets[0]!

describe('assertContract: statuses', () => {
  it.each([
    ['202 on listPets (documents 200)', 'GET', '/v1/pets', () => json([pet], 202)],
    ['an empty 204 on listPets', 'GET', '/v1/pets', () => empty(204)],
    ['200 on createPet (documents 201)', 'POST', '/v1/pets', () => json(pet, 200)],
    ['a redirect on getPet', 'GET', '/v1/pets/1', () => empty(302, { Location: '/v1/pets/2' })],
    ['304 on listPets', 'GET', '/v1/pets', () => empty(304)],
    ['201 on HEAD of getPet', 'HEAD', '/v1/pets/1', () => empty(201)],
    ['200 where the contract has no operation', 'GET', '/v1/owners', () => json([], 200)],
    ['200 on POST /__admin/faults (documents 201)', 'POST', '/__admin/faults', () => json({ id: 1, status: 503 }, 200)],
    ['200 on DELETE /__admin/faults (documents 204)', 'DELETE', '/__admin/faults', () => empty(200)],
    ['200 on an admin path with no route', 'GET', '/__admin/nope', () => json({}, 200)],
    ['304 on GET /__admin/faults (only the panel files revalidate)', 'GET', '/__admin/faults', () => empty(304)],
    ['308 on GET /__admin/state (only /__admin redirects)', 'GET', '/__admin/state', () => empty(308)],
  ])('fails on %s (%s %s)', async (_, method, url, answer) => {
    await expect(assertContract(method, url, answer())).rejects.toThrow(/not documented/)
  })

  it.each([
    ['GET', '/v1/pets', () => json([pet], 200)],
    ['POST', '/v1/pets', () => json(pet, 201, { Location: `/v1/pets/${pet.id}` })],
    ['HEAD', '/v1/pets/1', () => empty(200)],
    ['OPTIONS', '/v1/pets', () => empty(204, { Allow: 'GET, HEAD, POST, OPTIONS' })],
    ['GET', '/openapi.json', () => json({}, 200)],
    ['GET', '/__admin', () => empty(308, { Location: '/__admin/' })],
    ['GET', '/__admin/panel.js', () => empty(304)],
    ['PUT', '/__admin/state', () => empty(204)],
    ['GET', '/%5F%5Fadmin/state', () => json({ pets: [] }, 200)],
    // The mock's own errors, beyond the contract's: a 400 of listPets, a rule's 418, Redis away.
    ['GET', '/v1/pets', () => error(400, 'bad_request')],
    ['GET', '/v1/pets/1', () => error(418, 'i_m_a_teapot')],
    ['GET', '/__admin/health', () => error(503, 'store_unavailable')],
  ])('%s %s: lets a documented status pass', async (method, url, answer) => {
    await expect(assertContract(method, url, answer())).resolves.toBeUndefined()
  })

  it("takes the admin API's statuses from admin-openapi.yaml, its one list of routes", () => {
    expect(
      Object.fromEntries(
        [
          ['GET', '/__admin/health'],
          ['POST', '/__admin/faults'],
          ['PUT', '/__admin/faults/slow-list'],
          ['DELETE', '/__admin/faults/7'],
          ['GET', '/__admin/state'],
          ['PUT', '/__admin/state'],
          ['DELETE', '/__admin/clock'],
          ['GET', '/__admin/requests/stream'],
          ['POST', '/__admin/sessions/qa'],
          ['DELETE', '/__admin/sessions/qa'],
          ['GET', '/__admin'],
          ['GET', '/__admin/'],
          ['HEAD', '/__admin/panel.js'],
          ['OPTIONS', '/__admin/faults'],
          ['GET', '/__admin/nowhere'],
          ['PATCH', '/__admin/faults'],
        ].map(([method, path]) => [`${method} ${path}`, documentedStatuses(method!, path!)]),
      ),
    ).toEqual({
      'GET /__admin/health': [200],
      'POST /__admin/faults': [201],
      'PUT /__admin/faults/slow-list': [200, 201],
      'DELETE /__admin/faults/7': [204],
      'GET /__admin/state': [200],
      'PUT /__admin/state': [204],
      'DELETE /__admin/clock': [200],
      'GET /__admin/requests/stream': [200],
      'POST /__admin/sessions/qa': [200, 201],
      'DELETE /__admin/sessions/qa': [204],
      'GET /__admin': [308],
      'GET /__admin/': [200, 304],
      'HEAD /__admin/panel.js': [200, 304],
      'OPTIONS /__admin/faults': [204],
      'GET /__admin/nowhere': [],
      'PATCH /__admin/faults': [],
    })
  })
})
