/** A command line that cannot be run: exit code 2, the message, a hint when there is one, and where --help is. */
export class UsageError extends Error {
  override name = 'UsageError'

  /** A line after the message, such as the flag a mistyped one was probably meant to be. */
  readonly hint: string | undefined

  constructor(message: string, hint?: string) {
    super(message)
    this.hint = hint
  }
}

/** Options that contradict each other (cli/conflicts.ts): exit code 2 and one line, no usage. */
export class OptionConflict extends UsageError {
  override name = 'OptionConflict'
}

/** A configuration file that cannot be used (--tenants): exit code 2 and one line naming the file, entry and field. */
export class ConfigFileError extends UsageError {
  override name = 'ConfigFileError'
}

/**
 * An admin token given empty or blank (`PETSTORE_MOCK_ADMIN_TOKEN=""`, `--admin-token a,,b`): exit
 * code 2, one line, even from a former variable name, whose other bad values are taken for another tool's.
 */
export class EmptySecret extends UsageError {
  override name = 'EmptySecret'

  constructor(source: string) {
    super(
      `${source} is empty or blank: an admin token must have a secret; unset it to run without one (loopback only, or --open-admin)`,
    )
  }
}
