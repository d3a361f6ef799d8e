import { parseArgs, type ParseArgsConfig } from 'node:util'
import { createMockClient, type MockClient } from '../../client/mock-client.js'
import { isSessionName, pathNameRule } from '../../core/http/request/session-name.js'
import { Environment } from '../config/environment.js'

/**
 * What `petstore-mock coverage URL …` and `petstore-mock pact URL …` share:
 * they read a running mock's contract coverage (a CI gate) or its Pact file
 * through the typed admin client. URL is the mock's address (as
 * `createMockClient`'s baseUrl), not the API's base path.
 */

/** Bad usage: exit code 2, with the message and the usage. */
export class CliUsageError extends Error {
  override name = 'CliUsageError'
}

/** Where a command writes. */
export interface Output {
  write(text: string): unknown
}

/** The environment variable that holds the admin token, as the server reads it (--admin-token). */
export const adminTokenVariable = 'PETSTORE_MOCK_ADMIN_TOKEN'

/** The words after the command's name, parsed strictly; a CliUsageError for what cannot be. */
export const parseWords = <T extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: T) => {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new CliUsageError((error as Error).message)
  }
}

/** The mock a command was pointed at: its URL, the session and the admin token, checked. */
export interface MockTarget {
  url: string
  session: string | undefined
  /** From --token, else from {@link adminTokenVariable}; undefined when neither (or empty). */
  adminToken: string | undefined
}

/**
 * Checks the URL and --session a command was given, and reads its admin token from --token, else from
 * {@link adminTokenVariable} (or its former name, ADMIN_TOKEN, with a note on `err`).
 */
export const mockTarget = (
  url: string,
  values: { session?: string | undefined; token?: string | undefined },
  env: NodeJS.ProcessEnv,
  err: Output,
  urlName = 'URL',
): MockTarget => {
  if (!/^https?:\/\/[^/]/.test(url))
    throw new CliUsageError(`${urlName} must be an absolute http(s) URL (got "${url}")`)
  const session = values.session
  if (session !== undefined && !isSessionName(session)) {
    throw new CliUsageError(`--session must be ${pathNameRule} (got "${session}")`)
  }
  let adminToken = values.token
  if (adminToken === undefined) {
    const environment = new Environment(env)
    adminToken = environment.read(adminTokenVariable)?.value
    for (const note of environment.notes) err.write(`${note}\n`)
  }
  return { url, session, adminToken: adminToken === '' ? undefined : adminToken }
}

/** The client of the mock at the one positional URL ({@link mockTarget}). */
export const clientOf = (
  command: string,
  positionals: string[],
  values: { session?: string | undefined; token?: string | undefined },
  env: NodeJS.ProcessEnv,
  err: Output,
): MockClient => {
  if (positionals.length !== 1) throw new CliUsageError(`${command} takes one URL (got ${positionals.length})`)
  const { url, session, adminToken } = mockTarget(positionals[0]!, values, env, err)
  try {
    return createMockClient({
      baseUrl: url,
      ...(adminToken !== undefined && { adminToken }),
      ...(session !== undefined && { session }),
    })
  } catch (error) {
    throw new CliUsageError((error as Error).message)
  }
}

/** Prints why a command failed (with its usage for bad usage): exit code 2. */
export const fail = (command: string, usage: () => string, error: unknown, err: Output): number => {
  const more = error instanceof CliUsageError ? `\n\n${usage()}` : '\n'
  err.write(`petstore-mock ${command}: ${(error as Error).message}${more}`)
  return 2
}
