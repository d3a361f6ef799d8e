import { describe, expect, it } from 'vitest'
import { SseParser } from '../../../src/panel/api/sse.js'

const parse = (...chunks: string[]) => {
  const parser = new SseParser()
  return chunks.flatMap((chunk) => parser.push(chunk))
}

describe('SseParser (text/event-stream)', () => {
  it.each([
    ['one event', ['id: 1\nevent: request\ndata: {"a":1}\n\n'], [{ id: '1', event: 'request', data: '{"a":1}' }]],
    [
      'split anywhere',
      ['id: 1\nev', 'ent: request\nda', 'ta: {"a"', ':1}\n', '\n'],
      [{ id: '1', event: 'request', data: '{"a":1}' }],
    ],
    [
      'CRLF and CR line ends',
      ['data: x\r\n\r\ndata: y\r\rdata: z\n\n'],
      [
        { event: 'message', data: 'x' },
        { event: 'message', data: 'y' },
        { event: 'message', data: 'z' },
      ],
    ],
    ['a CR split from its LF', ['data: x\r', '\n\r\n'], [{ event: 'message', data: 'x' }]],
    ['comments (keep-alives) only', [': keep-alive\n\n: keep-alive\n\n'], []],
    ['retry alone is reported', ['retry: 1000\n\n'], [{ event: 'message', data: '', retry: 1000 }]],
    ['a bad retry is ignored', ['retry: soon\n\n'], []],
    ['multi-line data', ['data: a\ndata: b\n\n'], [{ event: 'message', data: 'a\nb' }]],
    ['no space after the colon', ['data:x\n\n'], [{ event: 'message', data: 'x' }]],
    ['an unfinished event waits', ['data: x\n'], []],
    [
      'the id sticks to later events',
      ['id: 7\ndata: a\n\ndata: b\n\n'],
      [
        { id: '7', event: 'message', data: 'a' },
        { id: '7', event: 'message', data: 'b' },
      ],
    ],
  ])('%s', (_name, chunks, events) => {
    expect(parse(...chunks)).toEqual(events)
  })
})
