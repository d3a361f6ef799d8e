import { describe, expect, it } from 'vitest'
import { parsePreferences } from '../../../src/core/faults/preferences.js'

describe('parsePreferences (RFC 7240)', () => {
  it.each([
    [undefined, {}],
    ['code=404', { code: '404' }],
    ['code=404, delay=200', { code: '404', delay: '200' }],
    ['CODE = "500" ; foo=bar, respond-async', { code: '500', 'respond-async': '' }],
    ['code=404, code=500', { code: '404' }],
    ['return=minimal, wait=10', { return: 'minimal', wait: '10' }],
    [',,', {}],
  ])('%s', (header, expected) => {
    expect(Object.fromEntries(parsePreferences(header))).toEqual(expected)
  })
})
