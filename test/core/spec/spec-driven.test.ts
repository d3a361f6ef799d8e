import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseSpec } from '../../../src/index.js'
import { auth, contractApp } from '../../helpers/contract.js'

const original = readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')

const modified = (from: string, to: string) => {
  expect(original).toContain(from)
  return parseSpec(original.replace(from, to))
}

describe('behaviour follows openapi.yaml', () => {
  it('a lower maximum for limit is enforced', async () => {
    const spec = modified('maximum: 100', 'maximum: 50')
    const { request } = contractApp({ spec })
    expect((await request('/v1/pets?limit=50', { headers: auth() })).status).toBe(200)
    const res = await request('/v1/pets?limit=51', { headers: auth() })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('limit must be an integer between 1 and 50 (got "51").')
  })

  it('a new default for limit is applied', async () => {
    const spec = modified('default: 20', 'default: 3')
    const { request } = contractApp({ spec })
    expect(await (await request('/v1/pets', { headers: auth() })).json()).toHaveLength(3)
  })

  it('a new status value is accepted', async () => {
    const spec = modified('enum: [available, pending, sold]', 'enum: [available, pending, sold, adopted]')
    const { request } = contractApp({ spec })
    expect((await request('/v1/pets?status=adopted', { headers: auth() })).status).toBe(200)
  })

  it('the base path comes from servers', async () => {
    const spec = parseSpec(original.replaceAll('.com/v1', '.com/v2'))
    const { request } = contractApp({ spec })
    expect((await request('/v2/pets', { headers: auth() })).status).toBe(200)
    expect((await request('/v1/pets', { headers: auth() })).status).toBe(404)
  })
})
