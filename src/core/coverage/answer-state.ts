import type { ProviderState } from './pact-seed.js'

// The names of provider-states.ts (which sets them up again; loaded by its route on first use, so
// that the hot path, which only names states, does not carry it).

const idParam = (raw: string): number | string => (Number.isSafeInteger(Number(raw)) ? Number(raw) : raw)

/** What the answer shows of the state it relied on; undefined for an answer that relied on none. */
export const stateOfAnswer = (
  operation: string,
  status: number,
  answer: { petId?: string; statusFilter?: string; json?: unknown; listed?: number },
): ProviderState | undefined => {
  if (operation === 'getPet' && answer.petId !== undefined) {
    if (status === 200 && answer.json && typeof answer.json === 'object') {
      return { name: `a pet with id ${answer.petId} exists`, params: { ...(answer.json as Record<string, unknown>) } }
    }
    if (status === 404) return { name: `no pet with id ${answer.petId}`, params: { id: idParam(answer.petId) } }
    return undefined
  }
  if (operation === 'listPets' && status === 200 && answer.listed !== undefined) {
    const filter = answer.statusFilter
    if (answer.listed === 0) {
      return filter === undefined
        ? { name: 'no pets exist' }
        : { name: `no pet with status ${filter} exists`, params: { status: filter } }
    }
    const pets = Array.isArray(answer.json) ? answer.json : []
    return filter === undefined
      ? { name: 'pets exist', params: { pets } }
      : { name: `pets with status ${filter} exist`, params: { status: filter, pets } }
  }
  return undefined
}
