import type { paths } from 'petstore-mock/types'

type PetBody = paths['/pets/{petId}']['get']['responses'][200]['content']['application/json']

/** The code under test: reads a pet's name from the Pet Store and retries a 503 once. */
export const petName = async (apiUrl: string, apiKey: string, id: number): Promise<string> => {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${apiUrl}/pets/${id}`, { headers: { Authorization: `Bearer ${apiKey}` } })
    if (res.status === 503 && attempt < 2) continue
    if (!res.ok) throw new Error(`GET /pets/${id} answered ${res.status}`)
    return ((await res.json()) as PetBody).name
  }
}
