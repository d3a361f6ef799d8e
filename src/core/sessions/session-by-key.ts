import { bearerKey, sha256Hex } from '../http/request/key-fingerprint.js'
import { isSessionName } from '../http/request/session-name.js'

/**
 * `--session-by-key` (issue 28): each API key selects its own session, so a
 * service under test that already sends its own key needs no change at all.
 * A key that is a session name (1 to 64 of A-Z a-z 0-9 . _ -) names the
 * session of the same name; any other key names `key-` and the first 16 hex
 * digits of its SHA-256 (stable, and the key never shows in listings).
 */

// Bounded: any client may send any key.
const names = new Map<string, string>()

/** The session an API key selects. */
export const keySessionName = (key: string): string => {
  if (isSessionName(key)) return key
  let name = names.get(key)
  if (name === undefined) {
    name = `key-${sha256Hex(key).slice(0, 16)}`
    if (names.size >= 1000) names.clear()
    names.set(key, name)
  }
  return name
}

/** The session an Authorization header's bearer token selects; undefined without one. */
export const authorizationSessionName = (header: string | null | undefined): string | undefined => {
  const token = bearerKey(header)
  return token === undefined ? undefined : keySessionName(token)
}
