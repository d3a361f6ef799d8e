/**
 * What a session keeps of each distinct interaction its requests had, for
 * GET /__admin/pact: the request as sent and the answer as given, the
 * provider state derived from the answer (the mock's own state at that
 * moment), kept once per key. Plain JSON, so that a store that lives
 * elsewhere (Redis) keeps it as text; turned into a Pact V4 interaction only
 * when the document is asked for (pact-document.ts).
 */

import type { components } from '../../generated/admin-types.js'

/** Most distinct interactions a session keeps; later distinct ones are counted as left out. */
export const maxInteractions = 200

/** A provider state as Pact writes it: admin-openapi.yaml's `ProviderState`, generated. */
export type ProviderState = components['schemas']['ProviderState']

/** The body of POST /__admin/provider-states, a state change call of the Pact verifier: admin-openapi.yaml's `StateChangeRequest`. */
export type StateChangeRequest = components['schemas']['StateChangeRequest']

/** One distinct interaction, as kept. */
export interface PactSeed {
  operation: string
  method: string
  path: string
  /** The query as sent, pairs in order, the mock's own controls (`__code`, `__delay`) left out. */
  query?: [string, string][]
  /** Whether the request's credentials were accepted: an answer 401 is kept as a request without Authorization. */
  authorized: boolean
  /** The request's Content-Type and body text, when it had a body. */
  requestType?: string
  requestBody?: string
  status: number
  responseType?: string
  /** The answer's body: parsed JSON (of an array, its first item only: see `listed`), or text. */
  response?: { json: unknown } | { text: string }
  /** For an answer that is a JSON array: 0 when it was empty, 1 when it had items (only the first is kept). */
  listed?: number
  state?: ProviderState
}

/** What a request hands the store: the interaction's key, and its seed, made only when the store keeps it. */
export interface InteractionNote {
  key: string
  seed: () => PactSeed
}

/** The distinct interactions a session kept, oldest first, and how many more it left out (beyond {@link maxInteractions}). */
export interface KeptInteractions {
  seeds: PactSeed[]
  leftOut: number
}
