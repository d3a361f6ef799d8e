import { type InteractionNote, type KeptInteractions, maxInteractions, type PactSeed } from './pact-seed.js'
import type { CoverageCounts } from './coverage-slice.js'

/** A counter of the in-memory store. */
interface Cell {
  n: number
}

/** The in-memory store's part: counts and kept interactions of one session. */
export class CoverageLedger {
  readonly #cells = new Map<string, Cell>()
  /**
   * The cells of each combination the stage hands in (a frozen array, the
   * same object every time: coverage-model.ts), found by identity: most
   * requests count without looking a name up.
   */
  readonly #combinations = new Map<readonly string[], Cell[]>()
  readonly #interactions = new Map<string, PactSeed>()
  #leftOut = 0

  #cell(name: string): Cell {
    let cell = this.#cells.get(name)
    if (cell === undefined) this.#cells.set(name, (cell = { n: 0 }))
    return cell
  }

  count(counters: readonly string[], interaction?: InteractionNote): void {
    let cells = this.#combinations.get(counters)
    if (cells === undefined) {
      cells = counters.map((name) => this.#cell(name))
      // Only frozen arrays are combinations: another caller's arrays would pile up here.
      if (Object.isFrozen(counters)) this.#combinations.set(counters, cells)
    }
    for (let i = 0; i < cells.length; i++) cells[i]!.n++
    if (interaction === undefined || this.#interactions.has(interaction.key)) return
    if (this.#interactions.size >= maxInteractions) this.#leftOut++
    else this.#interactions.set(interaction.key, interaction.seed())
  }

  counts(): CoverageCounts {
    const counts: Record<string, number> = {}
    for (const [name, cell] of this.#cells) if (cell.n > 0) counts[name] = cell.n
    return counts
  }

  interactions(): KeptInteractions {
    return { seeds: [...this.#interactions.values()], leftOut: this.#leftOut }
  }

  clear(): void {
    for (const cell of this.#cells.values()) cell.n = 0
    this.#interactions.clear()
    this.#leftOut = 0
  }
}
