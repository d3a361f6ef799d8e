import { readFileSync } from 'node:fs'
import type { AppOptions } from '../../core/app.js'
import { parseAdminToken } from '../../core/access/admin-scopes.js'
import { scopeOf } from '../../core/access/token-scope.js'
import { isLoopback } from './admin-access.js'
import { OptionConflict, UsageError } from './usage-errors.js'
import type { Config } from './config.js'

/**
 * Every admin token of a start: `--admin-token` (repeatable, PETSTORE_MOCK_ADMIN_TOKEN
 * comma-separated) and the lines of `--admin-tokens-file` (a mounted secret:
 * one `SECRET[=PATTERN][:read]` a line, blank lines and `#` comments skipped).
 * A bad line stops the start (exit 2) naming the file and line, never the value.
 */
export const adminTokensOf = (config: Config): string[] => {
  if (config.adminTokensFile === undefined) return config.adminTokens
  let text: string
  try {
    text = readFileSync(config.adminTokensFile, 'utf8')
  } catch (error) {
    throw new UsageError(`--admin-tokens-file ${config.adminTokensFile} cannot be read: ${(error as Error).message}`)
  }
  const fromFile = text.split(/\r?\n/).flatMap((raw, i) => {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) return []
    const token = parseAdminToken(line)
    if (typeof token === 'string')
      throw new UsageError(`--admin-tokens-file ${config.adminTokensFile} line ${i + 1}: ${token}`)
    return [line]
  })
  return [...config.adminTokens, ...fromFile]
}

/**
 * Whether /__admin is open off loopback (no token, `--open-admin`); a start
 * that would leave it open there without saying so is refused (exit 2, one
 * line: the host and the missing token or --open-admin disagree).
 */
export const openAdminOf = (config: Config, tokens: readonly string[]): boolean => {
  if (tokens.length > 0 || isLoopback(config.host)) return false
  if (!config.openAdmin) {
    throw new OptionConflict(
      `listening on ${config.host} with no admin token would leave /__admin open to every host that reaches the port: set --admin-token (or --admin-tokens-file), or say --open-admin (PETSTORE_MOCK_OPEN_ADMIN=true) for a single-job container`,
    )
  }
  return true
}

/** The banner's line about admin access. */
export const adminTokensBanner = (config: Config, tokens: readonly string[], open: boolean): string => {
  if (tokens.length === 0) {
    return open
      ? 'OPEN to every host that reaches the port (--open-admin): no admin token'
      : 'open (loopback only): set --admin-token on shared hosts'
  }
  const scopes = tokens.map((text) => {
    const token = parseAdminToken(text)
    return typeof token === 'string' ? 'all' : `${token.name} (${scopeOf(token)})`
  })
  return `admin token required: ${scopes.join(', ')}`
}

/**
 * The app's admin options of a Config: every token (flags and file), and whether /__admin is open
 * off loopback by choice; throws a UsageError for a bad file, an OptionConflict for an open start
 * off loopback that did not say --open-admin.
 */
export const adminTokenOptions = (config: Config): Pick<AppOptions, 'adminTokens' | 'openAdmin'> => {
  const tokens = adminTokensOf(config)
  return { adminTokens: tokens, ...(openAdminOf(config, tokens) && { openAdmin: true }) }
}
