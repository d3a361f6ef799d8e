import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from '../../../src/core/app.js'
import { readAheadFor } from '../../../src/core/pipeline/read-ahead.js'
import type { ReadAhead } from '../../../src/core/sessions/port.js'
import { spec } from '../../helpers/contract.js'

const guess = async (operationId: string, route: string, url: string): Promise<ReadAhead | undefined | 'none'> => {
  const op = spec.operations.find((o) => o.id === operationId)!
  const of = readAheadFor(op)
  let seen: ReadAhead | undefined | 'none' = 'none'
  const app = new Hono<AppEnv>()
  app.get(route, (c) => {
    seen = of?.(c)
    return c.body(null, 204)
  })
  await app.request(url)
  return seen
}

describe('readAheadFor: the read a handler will make, guessed from the raw request', () => {
  it.each([
    ['/v1/pets', { listPets: { limit: 20, status: undefined } }],
    ['/v1/pets?limit=7', { listPets: { limit: 7, status: undefined } }],
    ['/v1/pets?limit=100000', { listPets: { limit: 100, status: undefined } }],
    ['/v1/pets?status=sold&limit=3', { listPets: { limit: 3, status: 'sold' } }],
    ['/v1/pets?limit=abc', undefined],
    ['/v1/pets?limit=-1', undefined],
    ['/v1/pets?status=lost', undefined],
  ])('listPets %s → %j', async (url, expected) => {
    expect(await guess('listPets', '/v1/pets', url)).toEqual(expected)
  })

  it.each([
    ['/v1/pets/42', { getPet: 42 }],
    ['/v1/pets/abc', undefined],
    ['/v1/pets/-3', undefined],
    ['/v1/pets/1e3', undefined],
    ['/v1/pets/12345678901234567890', undefined],
  ])('getPet %s → %j', async (url, expected) => {
    expect(await guess('getPet', '/v1/pets/:petId', url)).toEqual(expected)
  })

  it('names no read for an operation that changes state', () => {
    expect(readAheadFor(spec.operations.find((o) => o.id === 'createPet')!)).toBeUndefined()
  })
})
