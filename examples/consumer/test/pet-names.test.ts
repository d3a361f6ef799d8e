import type { MockClient } from 'petstore-mock/client'
import { PetstoreMockContainer, type StartedPetstoreMockContainer } from 'petstore-mock/testcontainers'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { petName } from '../src/pet-names.js'

let mock: StartedPetstoreMockContainer
// The session of the running test: its API base URL and its admin client.
let apiUrl: string
let session: MockClient
let tests = 0

beforeAll(async () => {
  // The image petstore-mock:<package version>: docker build -t petstore-mock:<version> .
  mock = await new PetstoreMockContainer()
    .withFixtures([{ id: 7, name: 'Rex', categoryId: 1, status: 'available' }])
    .withApiKeys(['test-key'])
    .withAdminToken('admin-secret')
    .start()
})
afterAll(() => mock?.stop())
// A fresh session per test: start-up pets, no fault rules, an empty journal.
beforeEach(() => {
  const name = `test-${++tests}`
  apiUrl = `${mock.sessionUrl(name)}/v1`
  session = mock.sessionClient(name)
})

it('retries once when the Pet Store answers 503', async () => {
  await session.faults.add({ operation: 'getPet', petId: 7, status: 503, times: 1 })

  expect(await petName(apiUrl, 'test-key', 7)).toBe('Rex')

  const retry = await session.requests.waitFor({ operation: 'getPet', path: '/v1/pets/7', status: 200 })
  expect(retry.authorization).toBe('Bearer te…')
  expect(await session.requests.count({ operation: 'getPet' })).toBe(2)
})

it('gives up after the second 503', async () => {
  await session.faults.add({ operation: 'getPet', status: 503 })

  await expect(petName(apiUrl, 'test-key', 7)).rejects.toThrow('GET /pets/7 answered 503')

  expect(await session.requests.count({ operation: 'getPet', status: 503 })).toBe(2)
})
