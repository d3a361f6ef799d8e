import { type InteractionNote, type KeptInteractions, maxInteractions, type PactSeed } from '../pact/pact-seed.js'

/** Counters as a store keeps them: counter name → count. Names: see coverage-model.ts. */
export type CoverageCounts = Readonly<Record<string, number>>

/**
 * The part of the state port that contract coverage needs: counts kept per
 * session from its start or last reset, apart from the bounded journal (a
 * suite of 50,000 requests is counted in full). A store implements it
 * together with {@link import('../pact/pact-seed.js').PactSlice}.
 */
export interface CoverageSlice {
  /**
   * Atomic: adds one to each of `counters`; with `interaction`, keeps its
   * seed under its key unless that key is kept already, or counts it as left
   * out when the session keeps {@link maxInteractions} already. Nothing waits
   * for it: a store that lives elsewhere sends it in the same round trip as
   * the request's journal entry, which the answer waits for.
   */
  countCoverage(counters: readonly string[], interaction?: InteractionNote): void
  /** Every counter counted since the session's start, its last reset or its last clearCoverage. */
  coverageCounts(): CoverageCounts | Promise<CoverageCounts>
  /** Atomic: forgets the counts and the kept interactions (a reset does too). */
  clearCoverage(): void | Promise<void>
}

/** The in-memory store's part: counts and kept interactions of one session. */
export class CoverageLedger {
  readonly #counts = new Map<string, number>()
  readonly #interactions = new Map<string, PactSeed>()
  #leftOut = 0

  count(counters: readonly string[], interaction?: InteractionNote): void {
    const counts = this.#counts
    for (let i = 0; i < counters.length; i++) {
      const name = counters[i]!
      counts.set(name, (counts.get(name) ?? 0) + 1)
    }
    if (interaction === undefined || this.#interactions.has(interaction.key)) return
    if (this.#interactions.size >= maxInteractions) this.#leftOut++
    else this.#interactions.set(interaction.key, interaction.seed())
  }

  counts(): CoverageCounts {
    return Object.fromEntries(this.#counts)
  }

  interactions(): KeptInteractions {
    return { seeds: [...this.#interactions.values()], leftOut: this.#leftOut }
  }

  clear(): void {
    this.#counts.clear()
    this.#interactions.clear()
    this.#leftOut = 0
  }
}
