/**
 * An API key's fingerprint: `sha256:` and the first 12 hexadecimal digits of
 * the SHA-256 of the key (its UTF-8 bytes), e.g. `test-token` →
 * `sha256:4c5dc9b7c0f1`. The one fingerprint of a secret in the mock: the
 * journal shows it for each request (`apiKeyFingerprint`), a fault rule may
 * target a client by it (`when.apiKey: { fingerprint }`) without the key
 * itself being written into the rule, a snapshot or a bug report, and logs
 * that name a key or token use it too. 48 bits tell the keys of one
 * deployment apart; it is no secret and no proof of the key.
 *
 * SHA-256 in plain JavaScript, synchronous, the same on every host (Node, a
 * browser's msw, Redis replicas): Web Crypto's is asynchronous only, and the
 * core runs in any web runtime.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
])

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n))

const encoder = new TextEncoder()

/** SHA-256 of a text's UTF-8 bytes, as 64 lower-case hexadecimal digits. */
export const sha256Hex = (text: string): string => {
  const bytes = encoder.encode(text)
  // The message, a 1 bit, zeros, and its length in bits (64-bit big-endian), in 64-byte blocks.
  const blocks = Math.ceil((bytes.length + 9) / 64)
  const padded = new Uint8Array(blocks * 64)
  padded.set(bytes)
  padded[bytes.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(bytes.length / 0x20000000))
  view.setUint32(padded.length - 4, (bytes.length * 8) >>> 0)
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ])
  const w = new Uint32Array(64)
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block * 64 + i * 4)
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!
      const b = w[i - 2]!
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10)
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0
    }
    let a = h[0]!
    let b = h[1]!
    let c = h[2]!
    let d = h[3]!
    let e = h[4]!
    let f = h[5]!
    let g = h[6]!
    let hh = h[7]!
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
      hh = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    // A Uint32Array keeps each sum modulo 2^32.
    h[0] = h[0]! + a
    h[1] = h[1]! + b
    h[2] = h[2]! + c
    h[3] = h[3]! + d
    h[4] = h[4]! + e
    h[5] = h[5]! + f
    h[6] = h[6]! + g
    h[7] = h[7]! + hh
  }
  let hex = ''
  for (const word of h) hex += word.toString(16).padStart(8, '0')
  return hex
}

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

const BEARER = /^bearer +([^\s]+) *$/i

/** The API key of an Authorization header (`Bearer <key>`, the scheme in any case); undefined for none. */
export const bearerKey = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined) return undefined
  return BEARER.exec(authorization)?.[1]
}
