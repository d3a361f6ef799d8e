import { describe, expect, it } from 'vitest'
import { parseCommandLine } from '../../../src/node/cli/cli.js'
import { UsageError } from '../../../src/node/config/usage-errors.js'
import { closestFlag } from '../../../src/node/cli/did-you-mean.js'
import { helpGroups, usage, wrap } from '../../../src/node/cli/help-text.js'
import { optionSpecs } from '../../../src/node/cli/options.js'

const flags = optionSpecs.map((spec) => spec.flag)

describe('--help', () => {
  it('puts every option in exactly one group, in the order of the groups (none left to "Other")', () => {
    const grouped = helpGroups.flatMap((group) => group.flags)
    expect([...grouped].sort()).toEqual([...flags].sort())
    expect(new Set(grouped).size).toBe(grouped.length)
    expect(usage(80)).not.toContain('\nOther:')
    const text = usage(80)
    for (const group of helpGroups) expect(text).toContain(`\n${group.title}:\n  --${group.flags[0]}`)
  })

  it.each([60, 80, 100, 132])('fits %i columns, every option and variable named', (width) => {
    const text = usage(width)
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(width)
    for (const spec of optionSpecs) {
      expect(text).toMatch(new RegExp(`^  --${spec.flag}( <value>…?)?$`, 'm'))
      expect(text).toContain(`Env ${spec.env}.`)
    }
  })

  it('takes the terminal width, 80 when there is none', () => {
    const columns = Object.getOwnPropertyDescriptor(process.stdout, 'columns')
    try {
      Object.defineProperty(process.stdout, 'columns', { value: undefined, configurable: true })
      expect(usage()).toBe(usage(80))
      Object.defineProperty(process.stdout, 'columns', { value: 100, configurable: true })
      expect(usage()).toBe(usage(100))
    } finally {
      if (columns) Object.defineProperty(process.stdout, 'columns', columns)
      else delete (process.stdout as { columns?: number }).columns
    }
  })

  it('says --max-sessions refuses a new session, as the code and docs/reference/options.md do', () => {
    const text = usage(200)
    const row = text.slice(text.indexOf('  --max-sessions'), text.indexOf('  --max-memory'))
    expect(row).toContain('a new one beyond is refused (503 too_many_sessions)')
    expect(row).not.toMatch(/least recently/)
  })

  it('wraps at spaces, a word longer than the room stays whole', () => {
    expect(wrap('aa bb cc dd', 2, 24)).toEqual(['  aa bb cc dd'])
    expect(wrap('alpha beta gamma delta epsilon zeta', 0, 20)).toEqual(['alpha beta gamma', 'delta epsilon zeta'])
    expect(wrap('x'.repeat(30), 4, 24)).toEqual([`    ${'x'.repeat(30)}`])
  })
})

describe('a mistyped flag', () => {
  it.each([
    ['prot', 'port'],
    ['max-session', 'max-sessions'],
    ['fautls', 'faults'],
    ['jounral-size', 'journal-size'],
    ['helo', 'help'],
    ['seeds', 'seed'],
    ['admin-tokens', 'admin-token'],
    ['proxy-time', 'proxy-timeout'],
  ])('--%s: did you mean --%s?', (typed, meant) => {
    expect(closestFlag(typed, [...flags, 'help', 'version'])).toBe(meant)
    const error = (() => {
      try {
        parseCommandLine([`--${typed}`], {}, {})
      } catch (thrown) {
        return thrown
      }
    })() as UsageError
    expect(error).toBeInstanceOf(UsageError)
    expect(error.message).toBe(`unknown option --${typed}`)
    expect(error.hint).toBe(`did you mean --${meant}?`)
  })

  it.each(['zzzzzz', 'x', 'frobnicate'])('--%s: nothing close, no hint', (typed) => {
    expect(closestFlag(typed, flags)).toBeUndefined()
    expect(() => parseCommandLine([`--${typed}`], {}, {})).toThrow(
      expect.objectContaining({ message: `unknown option --${typed}`, hint: undefined }),
    )
  })

  it('a short flag that is not one: named, no hint', () => {
    expect(() => parseCommandLine(['-q'], {}, {})).toThrow(
      expect.objectContaining({ message: 'unknown option -q', hint: undefined }),
    )
  })
})
