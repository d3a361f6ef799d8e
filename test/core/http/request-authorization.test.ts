import { describe, expect, it } from 'vitest'
import { redactAuthorization } from '../../../src/core/http/request/authorization.js'

describe('redactAuthorization', () => {
  it.each([
    ['Bearer supersecrettoken', 'Bearer su…'],
    ['Bearer short', 'Bearer …'],
    ['Basic dXNlcjpwYXNzd29yZA==', 'Basic dX…'],
    ['garbage', 'garbage …'],
  ])('%s → %s', (header, redacted) => {
    expect(redactAuthorization(header)).toBe(redacted)
  })
})
