import { FAILSAFE_SCHEMA, Type } from 'js-yaml'

// The YAML 1.2 core schema's scalars exactly as the `yaml` package resolves them (js-yaml's own
// core schema also takes 0b101, 1_000 and +0x1F as numbers, and 1e400 as text).
const scalar = (name: string, pattern: RegExp, construct: (source: string) => unknown): Type =>
  new Type(`tag:yaml.org,2002:${name}`, {
    kind: 'scalar',
    resolve: (source: string) => pattern.test(source),
    construct,
  })

// Integers exact as safeIntegers keeps them: a number if it is safe (`-0` is 0), else a BigInt for
// validation to refuse. A number beyond the safe ones is at least 2^53, so none rounds into them.
const exactInteger = (source: string): number | bigint => {
  const number = Number(source)
  return Number.isSafeInteger(number) ? number + 0 : BigInt(source)
}

const readFloat = (source: string): number => {
  const special = source.slice(-3).toLowerCase()
  if (special === 'nan') return NaN
  if (special === 'inf') return source.startsWith('-') ? -Infinity : Infinity
  return parseFloat(source)
}

/**
 * The schema YAML data documents are read with: the YAML 1.2 core schema
 * (str, seq, map, null, bool, int, float; js-yaml refuses any other tag),
 * integers exact.
 */
export const yamlDataSchema = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar('null', /^(?:~|[Nn]ull|NULL)?$/, () => null),
    scalar('bool', /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (source) => source[0] === 't' || source[0] === 'T'),
    scalar('int', /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?[0-9]+)$/, exactInteger),
    scalar(
      'float',
      /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/,
      readFloat,
    ),
  ],
})
