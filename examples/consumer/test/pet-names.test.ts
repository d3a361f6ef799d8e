import { PetstoreMockContainer, type StartedPetstoreMockContainer } from 'petstore-mock/testcontainers'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { petName } from '../src/pet-names.js'

let mock: StartedPetstoreMockContainer

beforeAll(async () => {
  // The image petstore-mock:<package version>: docker build -t petstore-mock:<version> .
  mock = await new PetstoreMockContainer()
    .withFixtures([{ id: 7, name: 'Rex', categoryId: 1, status: 'available' }])
    .withApiKeys(['test-key'])
    .withAdminToken('admin-secret')
    .start()
})
afterAll(() => mock?.stop())
// Start-up pets, no fault rules, an empty journal.
beforeEach(() => mock.client.reset())

it('retries once when the Pet Store answers 503', async () => {
  await mock.client.faults.add({ operation: 'getPet', petId: 7, status: 503, times: 1 })

  expect(await petName(mock.apiUrl, 'test-key', 7)).toBe('Rex')

  const retry = await mock.client.requests.waitFor({ operation: 'getPet', path: '/v1/pets/7', status: 200 })
  expect(retry.authorization).toBe('Bearer te…')
  expect(await mock.client.requests.count({ operation: 'getPet' })).toBe(2)
})

it('gives up after the second 503', async () => {
  await mock.client.faults.add({ operation: 'getPet', status: 503 })

  await expect(petName(mock.apiUrl, 'test-key', 7)).rejects.toThrow('GET /pets/7 answered 503')

  expect(await mock.client.requests.count({ operation: 'getPet', status: 503 })).toBe(2)
})
