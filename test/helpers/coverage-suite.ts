import { bearer } from './auth.js'

/**
 * The consumer's suite the coverage and Pact tests run against a started mock at `url`, in
 * `session`: listPets 200 and 401, createPet 201 and 400. Answers the four statuses, in that order.
 * The 401 is asked for (`Prefer: code=401`): a request whose credentials fail changes nothing, its
 * coverage included (authentication first, issue 39).
 */
export const consumerSuite = async (url: string, session: string): Promise<number[]> => {
  const headers = { 'X-Mock-Session': session, ...bearer() }
  const post = (body: unknown) =>
    fetch(`${url}/v1/pets`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  return [
    (await fetch(`${url}/v1/pets`, { headers })).status,
    (await fetch(`${url}/v1/pets`, { headers: { ...headers, Prefer: 'code=401' } })).status,
    (await post({ name: 'Rex', categoryId: 1 })).status,
    (await post({ name: 'Rex' })).status,
  ]
}
