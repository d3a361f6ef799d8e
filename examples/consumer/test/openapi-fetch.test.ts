import createClient from 'openapi-fetch'
import { PetstoreMockContainer, type StartedPetstoreMockContainer } from 'petstore-mock/testcontainers'
import type { paths } from 'petstore-mock/types'
import { afterAll, beforeAll, expect, it } from 'vitest'

let mock: StartedPetstoreMockContainer

beforeAll(async () => {
  mock = await new PetstoreMockContainer().withFaker(5).withSeed(42).start()
})
afterAll(() => mock?.stop())

it('openapi-fetch, typed by the paths of petstore-mock/types, against the container', async () => {
  const api = createClient<paths>({ baseUrl: mock.apiUrl, headers: { Authorization: 'Bearer any-key' } })
  const created = await api.POST('/pets', { body: { name: 'Typed', categoryId: 3, status: 'pending' } })
  expect(created.response.status).toBe(201)
  const id = created.data!.id
  const read = await api.GET('/pets/{petId}', { params: { path: { petId: id } } })
  expect(read.data).toEqual({ id, name: 'Typed', categoryId: 3, status: 'pending' })
  const list = await api.GET('/pets', { params: { query: { status: 'pending', limit: 100 } } })
  expect(list.data?.some((pet) => pet.id === id)).toBe(true)
  const missing = await api.GET('/pets/{petId}', { params: { path: { petId: 999_999 } } })
  expect(missing.error).toEqual({ code: 'not_found', message: expect.any(String), status: 404 })
  // @ts-expect-error: the contract has no POST on /pets/{petId}
  const notInContract = () => api.POST('/pets/{petId}', { params: { path: { petId: 1 } } })
  expect(notInContract).toBeTypeOf('function')
})
