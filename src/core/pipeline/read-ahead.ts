import type { PetStatus } from '../spec/pet.js'
import { queryParams } from '../http/request/query.js'
import type { SpecOperation } from '../spec/spec.js'
import type { ReadAheadOf } from '../sessions/select-session.js'

const digits = /^[0-9]{1,15}$/

/**
 * For the operations whose handler reads (getPet, listPets): the read it will
 * make, guessed after authentication and before validation from the raw path and
 * query, so that a store that lives elsewhere (Redis) answers it together
 * with the session's selection: one round trip instead of two. A guess is
 * only that: the handler still asks with its validated input, and a store
 * answers from the guess only when the two are equal. A request that fails
 * validation costs one read it did not need, bounded by the contract's
 * maximum page.
 */
export const readAheadFor = (operation: SpecOperation): ReadAheadOf | undefined => {
  if (operation.id === 'getPet') {
    return (c) => {
      const raw = c.req.param('petId')
      return raw !== undefined && digits.test(raw) ? { getPet: Number(raw) } : undefined
    }
  }
  if (operation.id === 'listPets') {
    const schemaOf = (name: string) => operation.parameters.find((p) => p.name === name)?.schema ?? {}
    const limitSchema = schemaOf('limit') as { default?: number; maximum?: number }
    const statuses = ((schemaOf('status') as { enum?: string[] }).enum ?? []) as PetStatus[]
    const fallback = limitSchema.default ?? 20
    const maximum = limitSchema.maximum ?? fallback
    return (c) => {
      // The parse the later stages read too (hono's c.req.query(name) parses the URL at each call).
      const query = queryParams(c)
      const rawLimit = query['limit']?.[0]
      const rawStatus = query['status']?.[0]
      if (rawLimit !== undefined && !digits.test(rawLimit)) return undefined
      const status = rawStatus === undefined ? undefined : statuses.find((s) => s === rawStatus)
      if (rawStatus !== undefined && status === undefined) return undefined
      const limit = rawLimit === undefined ? fallback : Math.min(Number(rawLimit), maximum)
      return { listPets: { limit, status } }
    }
  }
  return undefined
}
