import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  bearerKey,
  fingerprintPattern,
  keyFingerprint,
  sha256Hex,
} from '../../../src/core/http/request/key-fingerprint.js'

describe('API key fingerprints', () => {
  it('SHA-256 in plain JavaScript equals node:crypto’s for any text (block edges included)', () => {
    for (const length of [0, 1, 54, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const text = 'k'.repeat(length)
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'))
    }
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'))
      }),
    )
  })

  it('a fingerprint is sha256: and the first 12 hex digits of the SHA-256 of the key (one form: journal, rules, logs)', () => {
    expect(keyFingerprint('test-token')).toBe('sha256:4c5dc9b77089')
    expect(keyFingerprint('test-token')).toMatch(fingerprintPattern)
    expect(keyFingerprint('other')).not.toBe('sha256:4c5dc9b77089')
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (key) => {
        expect(keyFingerprint(key)).toBe(
          `sha256:${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 12)}`,
        )
      }),
    )
  })

  it.each([
    ['Bearer abc', 'abc'],
    ['bearer   abc', 'abc'],
    ['BEARER abc ', 'abc'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
    ['Bearer a b', undefined],
    [undefined, undefined],
  ])('the key of Authorization %j is %j', (header, key) => {
    expect(bearerKey(header)).toBe(key)
  })
})
