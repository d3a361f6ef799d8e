import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { coverageSchema } from '../../src/core/coverage/coverage-schema.js'
import { PetstoreMockError } from '../../src/msw/index.js'
import { auth, postJson } from '../helpers/contract.js'
import { pactV4Schema } from '../helpers/pact-v4-schema.js'
import { useMswMock } from '../helpers/msw.js'

const { handlers, request } = useMswMock()

describe('coverage and pact in msw', () => {
  it('coverage() counts what the page sent, per session, as GET /__admin/coverage does', async () => {
    await request('/v1/pets', { headers: auth() })
    // Authentication first (issue 39): a request whose credentials fail counts nothing; a 401 is asked for.
    await request('/v1/pets')
    await request('/v1/pets', { headers: auth({ Prefer: 'code=401' }) })
    await request('/v1/pets', postJson({ name: 'Rex', categoryId: 1 }))
    await request('/v1/pets', postJson({ name: 'Rex' }))
    await request('/v1/pets/1', { headers: { ...auth(), 'X-Mock-Session': 'other' } })
    const report = await handlers.coverage()
    expect(new Ajv({ strict: true }).compile(coverageSchema)(report)).toBe(true)
    expect(report).toMatchObject({ session: 'default', covered: 4, total: 8, percent: 50, requests: 4 })
    expect((await handlers.coverage({ session: 'other' })).covered).toBe(1)
    await handlers.clearCoverage()
    expect((await handlers.coverage()).requests).toBe(0)
  })

  it('pact() is the Pact V4 document of the distinct interactions', async () => {
    await request('/v1/pets/7', { headers: auth() })
    await request('/v1/pets/7', { headers: auth() })
    const pact = await handlers.pact({ consumer: 'web' })
    expect(new Ajv({ strict: false }).compile(pactV4Schema)(pact)).toBe(true)
    expect(pact.provider.name).toBe('Pet Store')
    expect(pact.interactions.map((i) => i.description)).toEqual(['GET /v1/pets/7 → 200, given a pet with id 7 exists'])
    await expect(handlers.pact({ consumer: '' })).rejects.toThrow(PetstoreMockError)
    // A reset forgets it.
    await handlers.reset()
    expect((await handlers.pact({ consumer: 'web', provider: 'pets' })).interactions).toEqual([])
  })
})
