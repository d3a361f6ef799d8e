import { describe, expect, it } from 'vitest'
import { LosslessNumber } from 'lossless-json'
import { parseJsonExact } from '../../../src/core/http/json.js'
import { parseJsonOffThread as fromSources } from '../../../src/node/yaml/off-thread.js'
import { pieceWeight } from '../../../src/node/yaml/json-pieces.js'

// Issue 29: a long JSON state or snapshot body is parsed on the YAML reader's worker thread and copied
// back a piece at a time (src/node/yaml/json-pieces.ts). The value must be the one parseJsonExact gives
// on the event loop, LosslessNumbers, key order and own `__proto__` keys included; a text that is not
// JSON gets the same message. The worker runs compiled code (dist/, built by the global setup).
const compiled = new URL('../../../dist/node/yaml/off-thread.js', import.meta.url).href
const { parseJsonOffThread, jsonOnThreadChars } = (await import(compiled)) as {
  parseJsonOffThread: typeof fromSources
  jsonOnThreadChars: number
}

const pets = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `Pet number ${i + 1}`, categoryId: (i % 12) + 1 }))
const many = JSON.stringify({ pets: pets(40_000) })
// Pieces within pieces: an entry heavier than a piece is filled by pieces of its own.
const heavy = JSON.stringify({
  a: [Array(pieceWeight + 5).fill(1), { b: Array(pieceWeight * 2).fill('x'), c: 'd'.repeat(2 ** 20) }],
  e: pets(20_000),
})
const spliced = (text: string, at: string, insert: string) => text.replace(at, `${at}${insert}`)

const documents: [string, string][] = [
  ['40,000 pets', many],
  ['heavy entries, a 1 MiB string', heavy],
  ['an id of 2^53+1 near the end', many.replace('"id":39999,', '"id":9007199254740993,')],
  ['inexact numbers anywhere', spliced(heavy, '{"b":', '"n":[9007199254740993,1.0000000000000000001,-1e400],')],
  ['a key named __proto__', spliced(many, '"pets":[{', '"__proto__":{"polluted":true},')],
  ['a top-level __proto__ among heavy keys', spliced(heavy, '{', '"__proto__":[1,2],')],
  ['a repeated key near the end', many.replace('"id":39999,', '"id":39999,"id":1,')],
  ['cut short', many.slice(0, -10)],
  ['trailing garbage', `${many} x`],
  ['nested too deeply', `${'['.repeat(100_000)}${' '.repeat(jsonOnThreadChars)}${']'.repeat(100_000)}`],
  ['a top-level number of 400 digits', `${'9'.repeat(400)}${' '.repeat(jsonOnThreadChars)}`],
  ['a short text (parsed on the event loop)', '{"pets":[{"id":9007199254740993}]}'],
]

describe('long JSON data read on a worker thread (src/node/yaml/off-thread.ts)', () => {
  it.each(documents)('%s: the same value, or the same message, as parseJsonExact', async (_, text) => {
    const expected = parseJsonExact(text)
    // toStrictEqual: the same classes (LosslessNumber), own keys and order of keys.
    const got = await parseJsonOffThread(text)
    expect(got).toStrictEqual(expected)
    if (got.ok) expect(Object.keys(got.value as object)).toEqual(Object.keys(expected.ok && (expected.value as object)))
    expect(await fromSources(text)).toStrictEqual(expected)
  })

  it('an inexact number comes back as a LosslessNumber, where it was', async () => {
    const text = many.replace('"id":39999,', '"id":9007199254740993,')
    const got = await parseJsonOffThread(text)
    expect(got.ok).toBe(true)
    const pet = (got as { value: { pets: { id: unknown }[] } }).value.pets[39_998]!
    expect(pet.id).toBeInstanceOf(LosslessNumber)
    expect(String(pet.id)).toBe('9007199254740993')
  })

  it('texts sent together are answered each with its own value, long and short, good and bad', async () => {
    const texts = Array.from({ length: 6 }, (_, i) => (i % 3 === 0 ? many.slice(0, -i - 1) : i % 2 ? many : '[1]'))
    const outcomes = await Promise.all(texts.map((text) => parseJsonOffThread(text)))
    expect(outcomes).toStrictEqual(texts.map((text) => parseJsonExact(text)))
  })
})
