/**
 * The prefix of every environment variable the command reads: PETSTORE_MOCK_PORT for --port. Its
 * variables used to be unprefixed (PORT, LOG, …), which a shell sets for other tools too.
 */
export const envPrefix = 'PETSTORE_MOCK_'

/** The former, unprefixed name of a variable (PETSTORE_MOCK_PORT: PORT), still read for now. */
export const legacyName = (name: string): string => (name.startsWith(envPrefix) ? name.slice(envPrefix.length) : name)

/** A variable as read: its value and the name it was read by (to name in messages). */
export interface Variable {
  value: string
  name: string
  /** Read by its unprefixed name: a value that cannot be used may be another tool's. */
  legacy: boolean
}

/**
 * Reads the command's variables from an environment, each by its prefixed name or, failing that, by
 * its former one, and keeps the deprecation notes to print: one line per former name that is set,
 * once, whether or not it is read (the prefixed name wins when both are set). Values are never in a
 * note: API keys and tokens are variables too.
 */
export class Environment {
  readonly #env: NodeJS.ProcessEnv
  readonly #notes = new Map<string, string>()

  constructor(env: NodeJS.ProcessEnv) {
    this.#env = env
  }

  /**
   * The variable `name` (prefixed), or its former name's when only that one is set; `formerToo`
   * false: a variable that came with the prefix, whose unprefixed name is read by no one.
   */
  read(name: string, formerToo = true): Variable | undefined {
    const old = formerToo ? legacyName(name) : name
    const value = this.#env[name]
    const oldValue = old === name ? undefined : this.#env[old]
    if (oldValue !== undefined) {
      this.note(
        old,
        value === undefined
          ? `${old} is deprecated: set ${name} instead (read ${old} this time)`
          : `${old} is deprecated and ignored: ${name} is set too, and wins`,
      )
    }
    if (value !== undefined) return { value, name, legacy: false }
    return oldValue === undefined ? undefined : { value: oldValue, name: old, legacy: true }
  }

  /** Replaces the note about a former name (say, with why its value was not used). */
  note(old: string, text: string): void {
    this.#notes.set(old, `petstore-mock: ${text}`)
  }

  /** The notes so far, one line each, in the order the variables were read. */
  get notes(): string[] {
    return [...this.#notes.values()]
  }
}
