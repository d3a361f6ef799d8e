import { describe, expect, it } from 'vitest'
import { optionSpecs } from '../../src/node/cli/options.js'
import { verifyUsage } from '../../src/node/commands/verify/command.js'
import { codeSpans, pageTables, readPage } from '../helpers/doc-tables.js'

// docs/reference/options.md promises every option of the command: the table must list exactly the
// flags of src/node/cli/options.ts, each with its own variable and its default, so neither can drift.

const page = readPage('docs/reference/options.md')
const table = pageTables(page).find((candidate) => candidate.header[0] === 'Flag' && candidate.header[1] === 'Variable')
const rows = (table?.rows ?? []).map(([flag = '', variable = '', defaultCell = '']) => ({
  flag: /^--([a-z][a-z0-9-]*)/.exec(codeSpans(flag)[0] ?? '')?.[1] ?? `unreadable: ${flag}`,
  variable: codeSpans(variable)[0] ?? `unreadable: ${variable}`,
  defaultCell,
}))

describe('docs/reference/options.md', () => {
  it('has the options table', () => {
    expect(rows.length).toBeGreaterThan(0)
  })

  it('lists exactly the flags of src/node/cli/options.ts, each once', () => {
    expect(rows.map((row) => row.flag).sort()).toEqual(optionSpecs.map((spec) => spec.flag).sort())
  })

  it.each(optionSpecs.map((spec) => [spec.flag, spec] as const))('--%s: its variable and default', (flag, spec) => {
    const row = rows.find((candidate) => candidate.flag === flag)
    expect(row?.variable).toBe(spec.env)
    // A default written as one word or number (not a sentence in parentheses) is shown as such.
    if (spec.default !== undefined && /^[^\s(]+$/.test(spec.default)) {
      expect(codeSpans(row?.defaultCell ?? '')).toContain(spec.default)
    }
  })

  it('gives the verify subcommand with exactly its flags', () => {
    const line = /`petstore-mock verify URL([^`]*)`/.exec(page.replace(/\n/g, ' '))
    const documented = [...(line?.[1] ?? '').matchAll(/--([a-z-]+)/g)].map((match) => match[1])
    const real = [...verifyUsage().matchAll(/^ {2}(?:-\w, )?--([a-z-]+)/gm)].map((match) => match[1])
    expect(documented).toEqual(real.filter((flag) => flag !== 'help'))
  })
})
