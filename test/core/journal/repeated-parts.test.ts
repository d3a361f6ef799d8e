import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  keepBody,
  keepHeaders,
  keepUrl,
  maxBodyChars,
  maxHeaderValueChars,
  maxUrlChars,
} from '../../../src/core/journal/journal.js'
import { RepeatedParts } from '../../../src/core/journal/repeated-parts.js'

// Stands for the stage's redaction: works in place, as it does.
const redact = (headers: string[]): string[] => {
  for (let i = 0; i + 1 < headers.length; i += 2)
    if (headers[i]!.toLowerCase() === 'authorization') headers[i + 1] = `${headers[i + 1]!.slice(0, 6)}…`
  return headers
}

// Fresh strings with the same text, as Node's parser gives each request.
const fresh = (text: string): string => (' ' + text).slice(1)

describe('RepeatedParts: what a repeated request shares with the previous entry', () => {
  const headers = ['Host', '127.0.0.1:4010', 'Authorization', 'Bearer abcdefgh', 'Content-Type', 'application/json']

  it('a request that repeats the previous one keeps the same header list, URL, path, body and answer', () => {
    const parts = new RepeatedParts()
    const cut: string[] = []
    const first = {
      headers: parts.headers(headers.slice(), cut, redact),
      url: parts.url(fresh('http://127.0.0.1:4010/v1/pets'), cut),
      path: parts.path(fresh('/v1/pets'), cut),
      body: parts.body(fresh('{"name":"Rex","categoryId":1}'), true),
    }
    const answerHeaders = { 'content-type': 'application/json' }
    const answer = parts.response(200, answerHeaders, fresh('{"id":1}'), true)
    expect(first.headers).toEqual([
      'Host',
      '127.0.0.1:4010',
      'Authorization',
      'Bearer…',
      'Content-Type',
      'application/json',
    ])
    const again = {
      headers: parts.headers(headers.map(fresh), cut, redact),
      url: parts.url(fresh('http://127.0.0.1:4010/v1/pets'), cut),
      path: parts.path(fresh('/v1/pets'), cut),
      body: parts.body(fresh('{"name":"Rex","categoryId":1}'), true),
    }
    expect(again.headers).toBe(first.headers)
    expect(again.url).toBe(first.url)
    expect(again.path).toBe(first.path)
    expect(again.body).toBe(first.body)
    expect(parts.response(200, answerHeaders, fresh('{"id":1}'), true)).toBe(answer)
    expect(cut).toEqual([])
  })

  it('any difference makes a new part: a header value, the body kind, the status, another headers object', () => {
    const parts = new RepeatedParts()
    const cut: string[] = []
    const first = parts.headers(headers.slice(), cut, redact)
    const other = parts.headers([...headers.slice(0, 5), 'text/plain'], cut, redact)
    expect(other).not.toBe(first)
    expect(other.at(-1)).toBe('text/plain')
    expect(parts.headers([...headers, 'X-Extra', '1'], cut, redact)).toHaveLength(8)
    const body = parts.body('{"a":1}', true)
    expect(parts.body('{"a":1}', false)).not.toBe(body)
    const h = { 'content-type': 'application/json' }
    const answer = parts.response(200, h, '{}', true)
    expect(parts.response(201, h, '{}', true)).not.toBe(answer)
    const again = parts.response(201, h, '{}', true)
    // Headers built anew with the same names and values (a deprecated operation's answer) repeat it.
    expect(parts.response(201, { ...h }, '{}', true)).toBe(again)
    expect(parts.response(201, { ...h, sunset: 'x' }, '{}', true)).not.toBe(again)
    const more = parts.response(201, { ...h, sunset: 'x' }, '{}', true)
    expect(parts.response(201, { 'content-type': 'application/json', link: 'x' }, '{}', true)).not.toBe(more)
    expect(parts.response(201, h, '{}', true)).not.toBe(more)
  })

  it('a cut is noted on every entry that has it, never shared silently', () => {
    const parts = new RepeatedParts()
    const long = ['X-Long', 'v'.repeat(maxHeaderValueChars + 1)]
    const longUrl = `http://h/${'p'.repeat(maxUrlChars)}`
    for (let i = 0; i < 3; i++) {
      const cut: string[] = []
      parts.headers(long.slice(), cut, redact)
      parts.url(longUrl, cut)
      parts.path(longUrl, cut)
      expect(cut).toEqual(['header x-long', 'url', 'path'])
    }
  })

  it('property: every part equals what the journal keeps without sharing, with the same cuts', () => {
    const value = fc.oneof(
      fc.constantFrom('a', 'application/json', 'Bearer abcdefgh', '52'),
      fc.constant('w'.repeat(maxHeaderValueChars + 5)),
    )
    const request = fc.record({
      headers: fc.array(fc.tuple(fc.constantFrom('Host', 'Authorization', 'X-A', 'x-a'), value), { maxLength: 4 }),
      url: fc.constantFrom('http://h/v1/pets', 'http://h/v1/pets?limit=2', `http://h/${'u'.repeat(maxUrlChars)}`),
      body: fc.constantFrom('', '{"name":"Rex"}', 'not json', 'b'.repeat(maxBodyChars + 3)),
      json: fc.boolean(),
      status: fc.constantFrom(200, 201),
      answerHeaders: fc.constantFrom<Record<string, string>>(
        { 'content-type': 'application/json' },
        { 'content-type': 'application/json', sunset: 's' },
        { link: 'l' },
      ),
      text: fc.constantFrom(null, '', '{"id":1}'),
    })
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 12 }), (requests) => {
        const parts = new RepeatedParts()
        for (const r of requests) {
          const raw = r.headers.flat()
          const cut: string[] = []
          const kept = {
            headers: parts.headers(raw.map(fresh), cut, redact),
            url: parts.url(fresh(r.url), cut),
            path: parts.path(fresh(r.url), cut),
            body: parts.body(fresh(r.body), r.json),
            response: parts.response(r.status, { ...r.answerHeaders }, r.text === null ? null : fresh(r.text), true),
          }
          const alone: string[] = []
          const expected = {
            headers: keepHeaders(redact(raw.slice()), alone),
            url: keepUrl(r.url, alone),
            path: keepUrl(r.url, alone, 'path'),
            body: keepBody(r.body, r.json),
            response: {
              status: r.status,
              headers: r.answerHeaders,
              ...(r.text !== null && r.text !== '' && { body: keepBody(r.text, true) }),
            },
          }
          expect(kept).toEqual(expected)
          expect(cut).toEqual(alone)
        }
      }),
      { numRuns: 300 },
    )
  })
})
