import type { EventType, State } from 'js-yaml'

/** Why a reading stopped: a limit of data documents, with the line and column where. */
export class YamlReadingError extends Error {}

const documentMarkers = /^(?:---|\.\.\.)(?=[ \t\r\n]|$)/gm

/**
 * What js-yaml's parse events (a node opened, a node closed) tell about a
 * data document while it is read: it stops the read at the first collection
 * nested more than `maxDepth` deep, at a second document and at a %YAML
 * version other than 1.2; it keeps the key of the pair being stored for a
 * duplicate's message. Memory: one entry per open node, in arrays reused
 * from node to node (a million values make no garbage here).
 */
export class YamlReading {
  // The open nodes, outermost first: where each starts, the most collections nested in one of its
  // children, and its last two children's values (in a mapping refusing a pair: key and value).
  private open = 0
  private readonly starts: number[] = []
  private readonly heights: number[] = []
  private readonly previous: unknown[] = []
  private readonly last: unknown[] = []
  private documents = 0
  private firstEnd = 0

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  /** Whether the document may use aliases (anything shared is copied then). */
  get aliases(): boolean {
    return this.text.includes('*')
  }

  /** Where the innermost open node starts (js-yaml marks some errors where it ends). */
  lastStart(): number {
    return this.open > 0 ? this.starts[this.open - 1]! : 0
  }

  /** The key of the pair the innermost open mapping was storing. */
  lastKey(): unknown {
    return this.open > 0 ? this.previous[this.open - 1] : undefined
  }

  /** For js-yaml's `listener` option. */
  readonly listener = (event: EventType, state: State): void => {
    if (event === 'open') this.opened(state)
    else this.closed(state)
  }

  private opened(state: State): void {
    if (this.open === 0 && ++this.documents > 1) {
      // The marker after the first document's content: a line no scalar may hold.
      documentMarkers.lastIndex = this.firstEnd
      const start = documentMarkers.exec(this.text)?.index ?? state.position
      throw new YamlReadingError(`it holds more than one document: the second starts ${this.at(start)}`)
    }
    const version = state.version as string | number | null
    if (this.open === 0 && version !== null && String(version) !== '1.2') {
      const start = Math.max(0, this.text.search(/^%YAML/m))
      throw new YamlReadingError(
        `it declares %YAML ${version} ${this.at(start)}; data documents are YAML 1.2 (its core schema)`,
      )
    }
    const at = this.open++
    this.starts[at] = state.position
    this.heights[at] = 0
    this.previous[at] = undefined
    this.last[at] = undefined
  }

  private closed(state: State): void {
    const at = --this.open
    // js-yaml wraps the root in a node of the same result, and leaves a closed child's kind to its
    // parent: a collection is a node of that kind whose result is not its last child's.
    const collection = (state.kind === 'sequence' || state.kind === 'mapping') && state.result !== this.last[at]
    const height = this.heights[at]! + (collection ? 1 : 0)
    if (height > this.maxDepth) {
      throw new YamlReadingError(`it is nested more than ${this.maxDepth} levels deep ${this.at(this.starts[at]!)}`)
    }
    // What it held is not kept past its reading.
    this.previous[at] = this.last[at] = undefined
    if (at === 0) {
      this.firstEnd = state.position
      return
    }
    const parent = at - 1
    if (height > this.heights[parent]!) this.heights[parent] = height
    this.previous[parent] = this.last[parent]
    this.last[parent] = state.result
  }

  /** `at line L, column C` of an offset in the text (lines end at \n, \r\n or \r, as js-yaml counts). */
  at(offset: number): string {
    const before = this.text.slice(0, offset)
    const lines = before.split(/\r\n|\r|\n/)
    return `at line ${lines.length}, column ${lines.at(-1)!.length + 1}`
  }
}
