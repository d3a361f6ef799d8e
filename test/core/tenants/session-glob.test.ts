import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { globMatches, globsOverlap } from '../../../src/core/tenants/session-glob.js'

// Every name of up to 6 characters over a small alphabet: what overlap is checked against.
const alphabet = ['a', 'b', '-']
const names = (length: number): string[] =>
  length === 0 ? [''] : names(length - 1).flatMap((name) => alphabet.map((c) => name + c))
const allNames = [0, 1, 2, 3, 4, 5, 6].flatMap(names)

describe('session globs', () => {
  it.each([
    ['team-a-*', 'team-b-*', false],
    ['team-a-*', 'team-*', true],
    ['team-?', 'team-ab', false],
    ['*-a', 'b-*', true],
    ['a*b', 'a*c', false],
    ['*', 'x', true],
    ['abc', 'abc', true],
    ['abc', 'abd', false],
  ])('%s and %s overlap: %s', (a, b, overlap) => {
    expect(globsOverlap(a, b)).toBe(overlap)
    expect(globsOverlap(b, a)).toBe(overlap)
  })

  it('matching is linear in the name: a glob of many stars against 64 characters that almost match', () => {
    // A backtracking matcher takes seconds for one of these (issue 40: 8.4 s) and longer with
    // every star: twelve stars would outlast the test's timeout by far. No stopwatch needed.
    expect(globMatches('*a*a*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(64))).toBe(false)
    expect(globMatches('*a*a*a*a*a*a*a*a*a*a*a*a*', 'a'.repeat(64))).toBe(true)
  })

  it('matches as a regular expression of the glob would (property)', () => {
    const glob = fc.string({ unit: fc.constantFrom('a', 'b', '*', '?'), maxLength: 6 })
    const name = fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 8 })
    fc.assert(
      fc.property(glob, name, (g, n) => {
        const regex = new RegExp(`^${g.replace(/\*/g, '.*').replace(/\?/g, '.')}$`)
        expect(globMatches(g, n)).toBe(regex.test(n))
      }),
      { numRuns: 2000 },
    )
  })

  it('overlap is exactly: some name of the alphabet matches both (property, against every short name)', () => {
    const glob = fc.string({ unit: fc.constantFrom('a', 'b', '-', '*', '?'), maxLength: 3 })
    fc.assert(
      fc.property(glob, glob, (a, b) => {
        const some = allNames.some((name) => globMatches(a, name) && globMatches(b, name))
        // Two globs of 3 characters each have a witness of at most 6 when they overlap.
        expect(globsOverlap(a, b)).toBe(some)
      }),
      { numRuns: 500 },
    )
  })
})
