import { SeedError } from '../../core/pets/seed.js'
import { DataFileError } from '../start/data-file-error.js'
import { StoreAccessDenied, StoreClientMissing } from '../store/open-store.js'
import { ConfigFileError, EmptySecret, OptionConflict, UsageError } from '../config/usage-errors.js'

/** The command's exit codes (`main` returns none while it serves: the process exits when stopped). */
export const exitCodes = {
  /** Served, then stopped by SIGTERM or SIGINT; or --help, --version. */
  ok: 0,
  /** A start that failed: unusable seed data or data file, a store that cannot be reached, … */
  startFailed: 1,
  /** A command line that cannot be run: unknown flag, bad value, options that differ from the fleet's in Redis, … */
  usage: 2,
  /** A stop forced by a second signal or by --grace-seconds: what was in flight lost its connection. */
  forced: 1,
} as const

/** Where a command line's mistake sends the user. */
export const helpPointer = 'Run petstore-mock --help for every option (or see docs/reference/options.md).'

/** What a failed start prints on stderr and exits with. */
export interface Failure {
  code: (typeof exitCodes)[keyof typeof exitCodes]
  stderr: string
}

/**
 * The exit code and the text on stderr for what a start threw: a usage error with its hint and --help,
 * contradicting options, a bad configuration file, a missing store client and a store that refuses this replica's credentials or certificate in one line (exit 2); bad data naming the file
 * and entry, anything else as "cannot start" (exit 1).
 */
export const failureOf = (error: unknown): Failure => {
  // One line: the usage would bury which two options disagree.
  if (error instanceof OptionConflict || error instanceof ConfigFileError || error instanceof EmptySecret)
    return { code: exitCodes.usage, stderr: `petstore-mock: ${error.message}\n` }
  // A replica whose options differ from its fleet's: a line per difference (store/redis/fleet-fingerprint.ts,
  // loaded with the Redis store only, hence by name).
  if ((error as Error | undefined)?.name === 'FleetMismatch')
    return { code: exitCodes.usage, stderr: `petstore-mock: ${(error as Error).message}\n` }
  if (error instanceof StoreClientMissing || error instanceof StoreAccessDenied)
    return { code: exitCodes.usage, stderr: `petstore-mock: ${error.message}\n` }
  // The mistake, a hint, and where the options are: the whole usage would bury the one useful line.
  if (error instanceof UsageError) {
    const hint = error.hint === undefined ? '' : `${error.hint}\n`
    return { code: exitCodes.usage, stderr: `petstore-mock: ${error.message}\n${hint}${helpPointer}\n` }
  }
  const message =
    error instanceof SeedError || error instanceof DataFileError
      ? error.message
      : `cannot start: ${(error as Error).message}`
  return { code: exitCodes.startFailed, stderr: `petstore-mock: ${message}\n` }
}
