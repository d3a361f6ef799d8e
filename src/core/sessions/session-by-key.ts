import { sha256Hex } from '../http/request/key-fingerprint.js'
import { isSessionName } from '../http/request/session-name.js'
import { globMatches } from '../tenants/session-glob.js'
import type { Tenant } from '../tenants/tenant.js'

/**
 * `--session-by-key` (issues 28 and 39): each API key selects its own
 * session, so a service under test that already sends its own key needs no
 * change at all. The session's name is derived from the key and never is the
 * key: `key-` and 16 hex digits of the SHA-256 of a label of its own and the
 * key (domain-separated, so it is neither the key nor the journal's
 * fingerprint of it). Presenting that name, or any other string, as a key
 * selects another session. With tenants, the name lies inside the key's
 * tenant: its first glob that can hold it, with the first `*` read as
 * `key-<hex>`.
 */

/** What the hash of a key is taken over, before the key: no other hash of a key in the mock starts so. */
const label = 'petstore-mock session-by-key\u0000'

/** Hex digits of the derived name: 64 bits, so two keys of one deployment never share a session. */
const digits = 16

// Bounded: any client may send any key.
const hashes = new Map<string, string>()

const keyHash = (key: string): string => {
  let hash = hashes.get(key)
  if (hash === undefined) {
    hash = sha256Hex(label + key).slice(0, digits)
    if (hashes.size >= 1000) hashes.clear()
    // Keys longer than a real one are hashed each time rather than kept.
    if (key.length <= 512) hashes.set(key, hash)
  }
  return hash
}

/**
 * The name `glob` gives the derived part `part`: its first `*` is `part`, any
 * other `*` nothing and each `?` a `0`; undefined when that is no session
 * name (too long, or a glob with no `*` and so no room for a key's session).
 */
const inGlob = (glob: string, part: string): string | undefined => {
  const star = glob.indexOf('*')
  if (star < 0) return undefined
  const fill = (text: string) => text.replace(/\*/g, '').replace(/\?/g, '0')
  const name = `${fill(glob.slice(0, star))}${part}${fill(glob.slice(star + 1))}`
  return isSessionName(name) && globMatches(glob, name) ? name : undefined
}

/**
 * The session an API key selects: `key-<hex>` for a key of no tenant, the
 * same inside one of the tenant's globs for a tenant's key; undefined when
 * none of the tenant's globs can hold a key's session (a glob without `*`,
 * or one whose literal part leaves no room in 64 characters).
 */
export const keySessionName = (key: string, tenant?: Tenant): string | undefined => {
  const part = `key-${keyHash(key)}`
  if (tenant === undefined) return part
  for (const glob of tenant.sessions) {
    const name = inGlob(glob, part)
    if (name !== undefined) return name
  }
  return undefined
}
