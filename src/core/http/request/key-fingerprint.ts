/**
 * An API key's fingerprint: `sha256:` and the first 12 hexadecimal digits of
 * the SHA-256 of the key (its UTF-8 bytes), e.g. `test-token` →
 * `sha256:4c5dc9b77089`. The one fingerprint of a secret in the mock: the
 * journal shows it for each request (`apiKeyFingerprint`), a fault rule may
 * target a client by it (`when.apiKey: { fingerprint }`) without the key
 * itself being written into the rule, a snapshot or a bug report, and logs
 * that name a key or token use it too. 48 bits tell the keys of one
 * deployment apart; it is no secret and no proof of the key.
 *
 * SHA-256 by @noble/hashes: synchronous and the same on every host (Node,
 * a browser's msw, Redis replicas), where Web Crypto's is asynchronous only
 * and node:crypto is not in every web runtime the core runs in.
 */

import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { bearerToken } from './authorization.js'

/** SHA-256 of a text's UTF-8 bytes, as 64 lower-case hexadecimal digits. */
export const sha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)))

/** Hexadecimal digits of the SHA-256 a fingerprint keeps. */
export const fingerprintDigits = 12

/** What a fingerprint looks like: `sha256:` and {@link fingerprintDigits} lower-case hexadecimal digits. */
export const fingerprintPattern = new RegExp(`^sha256:[0-9a-f]{${fingerprintDigits}}$`)

// Every journaled request with a key asks (a few µs of hashing each): the keys of a test run are few,
// so their fingerprints are kept, at most this many (forgotten all at once beyond: memory stays flat).
const maxKept = 256
const kept = new Map<string, string>()

/** The fingerprint of an API key (or any secret): `sha256:` and the first 12 hex digits of its SHA-256. */
export const keyFingerprint = (key: string): string => {
  let fingerprint = kept.get(key)
  if (fingerprint === undefined) {
    fingerprint = `sha256:${sha256Hex(key).slice(0, fingerprintDigits)}`
    if (kept.size >= maxKept) kept.clear()
    // Keys longer than a real one are hashed each time rather than kept.
    if (key.length <= 512) kept.set(key, fingerprint)
  }
  return fingerprint
}

/** The API key of an Authorization header (`Bearer <key>`, the scheme in any case); undefined for none. */
export const bearerKey = (authorization: string | null | undefined): string | undefined =>
  bearerToken(authorization, true)
