import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { JournalRecord } from '../../../src/core/journal/journal.js'
import { decodeEntry, encodeEntry, parsePage, parsePet } from '../../../src/node/store/redis/codec.js'
import { toJsonText } from '../../../src/core/http/known-json.js'
import { journalRecord } from '../../helpers/journal-records.js'

const base = journalRecord(1, { time: 1, durationMs: 0.5, headers: ['Authorization', 'Bearer …'] })

/** As psRecords stores it: `{"id":N` then the encoded tail. */
const stored = (id: number, entry: Omit<JournalRecord, 'id'>) => `{"id":${id}${encodeEntry(entry)}`

describe('journal entries as the Redis store keeps them (the answer body after a NUL, unescaped)', () => {
  it('an entry without an answer body is its JSON', () => {
    const entry = { ...base, status: 0 }
    expect(stored(3, entry)).toBe(JSON.stringify({ id: 3, ...entry }))
    expect(decodeEntry(stored(3, entry))).toEqual({ id: 3, ...entry })
  })

  it("as kept in a session's list, its cost and a comma in front, it decodes the same", () => {
    const entry = {
      ...base,
      status: 0,
      response: { status: 200, headers: {}, body: { text: 'a,b\u0000c', json: false } },
    }
    expect(decodeEntry(`417,${stored(3, entry)}`)).toEqual({ id: 3, ...entry })
    expect(decodeEntry(`417,${stored(3, entry)}`)).toEqual(decodeEntry(stored(3, entry)))
  })

  it('any entry, whatever its bodies hold (NULs, quotes, unpaired surrogates, cut texts), decodes to itself, keys in order', () => {
    const text = fc.string({ unit: 'binary', maxLength: 200 })
    fc.assert(
      fc.property(
        text,
        text,
        fc.boolean(),
        fc.option(fc.nat(), { nil: undefined }),
        (responseText, requestText, json, truncatedFrom) => {
          const body =
            truncatedFrom === undefined ? { text: responseText, json } : { text: responseText, json, truncatedFrom }
          const entry: Omit<JournalRecord, 'id'> = {
            ...base,
            body: { text: requestText, json: false },
            response: { status: 200, headers: { 'content-type': 'application/json' }, body },
          }
          const decoded = decodeEntry(stored(7, entry))
          expect(decoded).toEqual({ id: 7, ...entry })
          expect(JSON.stringify(decoded)).toBe(JSON.stringify({ id: 7, ...entry }))
        },
      ),
    )
  })

  it("an entry as the journal stage makes it (id 0 first, absent fields undefined) is stored under the script's id only", () => {
    const entry: JournalRecord = {
      id: 0,
      ...base,
      apiKeyFingerprint: undefined,
      body: undefined,
      response: { status: 200, headers: {}, body: { text: '[]', json: true } },
      shapedBy: undefined,
      cut: undefined,
    }
    const json = stored(9, entry)
    expect(json.match(/"id":/g)).toHaveLength(1)
    const { id: _, ...rest } = entry
    expect(decodeEntry(json)).toEqual({ id: 9, ...JSON.parse(JSON.stringify(rest)) })
    expect(Object.keys(decodeEntry(json))).toEqual(['id', ...Object.keys(base), 'response'])
    expect(stored(4, { id: 0 } as unknown as JournalRecord)).toBe('{"id":4}')
  })

  it('leaves the entry it encodes as it was', () => {
    const entry: Omit<JournalRecord, 'id'> = {
      ...base,
      response: { status: 200, headers: {}, body: { text: '[]', json: true } },
    }
    encodeEntry(entry)
    expect(entry.response!.body).toEqual({ text: '[]', json: true })
  })
})

describe('pages and pets as Redis answers them (parsed once while the same text comes back)', () => {
  const page = '[{"id":1,"name":"a","categoryId":1},{"id":2,"name":"b","categoryId":2,"status":"sold"}]'

  it('a page equal to the last one parsed is the same page; another text is parsed anew', () => {
    const first = parsePage(page)
    // An equal text that is another string (as each Redis reply is).
    const again = parsePage(JSON.stringify(JSON.parse(page)))
    expect(again).toBe(first)
    const other = parsePage('[{"id":3,"name":"c","categoryId":1}]')
    expect(other).not.toBe(first)
    expect(other).toEqual([{ id: 3, name: 'c', categoryId: 1 }])
    expect(toJsonText(other)).toBe('[{"id":3,"name":"c","categoryId":1}]')
    // The page before is not handed out for the text after it, nor the other way round.
    expect(parsePage(page)).toEqual(JSON.parse(page))
    expect(toJsonText(parsePage(page))).toBe(page)
    expect(parsePage('[]')).toEqual([])
  })

  it('a pet equal to the last one parsed is the same pet; none is none', () => {
    const text = '{"id":7,"name":"Rocky","categoryId":2,"status":"available"}'
    const first = parsePet(text)
    expect(parsePet(`${text} `.trimEnd())).toBe(first)
    expect(parsePet(null)).toBeUndefined()
    const other = parsePet('{"id":8,"name":"Mochi","categoryId":3}')
    expect(other).toEqual({ id: 8, name: 'Mochi', categoryId: 3 })
    expect(toJsonText(other)).toBe('{"id":8,"name":"Mochi","categoryId":3}')
    expect(parsePet(text)).toEqual(JSON.parse(text))
  })
})
