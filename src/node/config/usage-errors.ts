/** A command line that cannot be run: exit code 2, message and usage. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** Options that contradict each other (cli/conflicts.ts): exit code 2 and one line, no usage. */
export class OptionConflict extends UsageError {
  override name = 'OptionConflict'
}
