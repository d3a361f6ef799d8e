import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { safeIntegers } from '../../../src/core/body/yaml-data.js'
import { parseYamlData } from '../../../src/node/yaml/data-parser.js'

// The reader before js-yaml: the `yaml` package's document model, integers as BigInt. Valid
// documents must read the same with the new one.
const previous = (text: string): unknown => safeIntegers(parse(text, { intAsBigInt: true, logLevel: 'error' }))

const outcome = (read: (text: string) => unknown, text: string): { value: unknown } | { refused: true } => {
  try {
    return { value: read(text) }
  } catch {
    return { refused: true }
  }
}

const data = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer(),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    fc.double(),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom('1_000', '0x1F', '0o17', '+5', '-0', '.5', '1e3', '~', 'null', 'True', 'yes', '<<', '', ' a ', '#'),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 4 }),
  ),
})).value

// Plain scalars as written by hand: what each resolves to (number, boolean, null or text).
// Not `-` alone: that is an empty sequence, not a scalar (see the differences above).
const plain = fc.oneof(
  fc.stringMatching(/^[-+.0-9a-fA-FxoOeEn_~]{1,10}$/).filter((text) => text !== '-'),
  fc.constantFrom(
    '.inf',
    '-.Inf',
    '.NaN',
    'NULL',
    'Null',
    'TRUE',
    'False',
    '0b101',
    '1e400',
    '-1e400',
    '00012',
    '1.',
    '.1e2',
  ),
)

describe('the js-yaml reader reads what the yaml package read (issue 20 §1)', () => {
  it.each([
    ['block style', (value: unknown) => stringify(value)],
    ['flow style', (value: unknown) => stringify(value, { collectionStyle: 'flow' })],
  ])('generated data written in %s: the same value', (_, write) => {
    fc.assert(
      fc.property(data, (value) => {
        const text = write(value)
        expect(parseYamlData(text)).toEqual(previous(text))
      }),
      { numRuns: 500 },
    )
  })

  it('generated data as JSON text: the same value as in YAML text', () => {
    fc.assert(
      fc.property(data, (value) => {
        const json = JSON.stringify(value, (_, item) => (typeof item === 'bigint' ? Number(item) : item))
        if (json === undefined) return
        expect(parseYamlData(json)).toEqual(previous(json))
      }),
      { numRuns: 500 },
    )
  })

  it.each([
    '1.50: a',
    '0x1F: a',
    'true: 1',
    '__proto__: 1',
    '<<: {a: 1}',
    'a: &x [1, 2]\nb: *x',
    'a: ! 5',
    'a: !!str 12',
    'a: !!int "7"',
    'a: !<tag:yaml.org,2002:float> 1.5',
    '\'a\': "b\\u00e9"',
    'a: |\n  two\n  lines\n',
    'a: >-\n  folded\n  text\n',
    '%YAML 1.2\n---\na: yes',
    '--- a\n...\n',
    '',
    '# nothing',
  ])('%j: the same value', (text) => {
    expect(parseYamlData(text)).toEqual(previous(text))
  })

  // Where js-yaml reads a valid document otherwise, by decision (a data document has text keys
  // and no such shapes): what each now reads as.
  it.each([
    ['~: 1', { null: 1 }, { '': 1 }],
    ['null: 1', { null: 1 }, { '': 1 }],
    ['? [a, b]\n: c', { 'a,b': 'c' }, { '[ a, b ]': 'c' }],
    ['- -\n- a', [[null, 'a']], [[null], 'a']],
  ])('%j reads as %j (the yaml package: %j)', (text, now, before) => {
    expect(parseYamlData(text)).toEqual(now)
    expect(previous(text)).toEqual(before)
  })

  it('hand-written plain scalars in a mapping and a sequence: the same value, or both refused', () => {
    fc.assert(
      fc.property(plain, plain, (a, b) => {
        for (const text of [`x: ${a}\ny: ${b}\n`, `[${a}, ${b}]`, `- ${a}\n- ${b}\n`]) {
          expect(outcome(parseYamlData, text)).toEqual(outcome(previous, text))
        }
      }),
      { numRuns: 2000 },
    )
  })
})
