import { createMockClient, MockAdminError, type MockClient } from 'petstore-mock/client'
import type { components, FaultRule, FaultRuleInput, JournalEntry, NewPet, Pet, PetStatus } from 'petstore-mock/types'
import { expect, it } from 'vitest'

// Compile-time checks: the types are the server's, not `any`.
const status: PetStatus = 'sold'
// @ts-expect-error: not a PetStatus
const lost: PetStatus = 'lost'
const newPet: NewPet = { name: 'Rex', categoryId: 2, status }
const pet: Pet = { id: 1, ...newPet }
const schemaPet: components['schemas']['Pet'] = pet
// @ts-expect-error: a fault is one of connection_reset, empty_response, malformed_body
const explode: FaultRuleInput = { fault: 'explode' }
const rule: FaultRule = { id: 1, operation: 'getPet', status: 503, remaining: 2 }
const operationOf = (entry: JournalEntry): string | null => entry.operation

it('petstore-mock/client runs without a container: an Error body becomes a MockAdminError', async () => {
  const answers404 = async () =>
    new Response('{"code":"not_found","message":"No fault rule with id 9.","status":404}', { status: 404 })
  const client: MockClient = createMockClient({ baseUrl: 'http://127.0.0.1:4010', fetch: answers404 })
  const error = await client.faults.remove(9).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(MockAdminError)
  expect(error).toMatchObject({ status: 404, code: 'not_found', body: { message: 'No fault rule with id 9.' } })
  expect([lost, explode, schemaPet, rule, operationOf].length).toBe(5)
})
