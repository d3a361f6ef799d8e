import { readdirSync, readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { join } from 'node:path'
import { RequestError } from '@hono/node-server'
import { describe, expect, it } from 'vitest'
import { errorCodeFor, errorCodes } from '../../src/core/http/errors.js'
import {
  answerClientError,
  answerConnect,
  answerExpectation,
  requestErrorResponse,
} from '../../src/node/server/protocol-errors.js'
import { codeSpans, docsRoot, pageTables, readPage } from '../helpers/doc-tables.js'

// docs/reference/errors.md lists the `code` of every status the mock answers with an `Error` body.
// The statuses come from the code: the documented table of src/core/http/errors.ts, every status
// literal an ApiError is made with, and the answers the Node host writes itself.

const page = readPage('docs/reference/errors.md')
const table = pageTables(page).find((candidate) => candidate.header[0] === 'Status')
const documented = new Map((table?.rows ?? []).map(([status = '', code = '']) => [Number(status), codeSpans(code)[0]]))

const sources = (dir: string): string[] =>
  readdirSync(join(docsRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => readFileSync(join(docsRoot, dir, path), 'utf8'))
const serverSources = [...sources('src/core'), ...sources('src/node'), ...sources('src/msw')]

/** The status of a raw HTTP answer written by `write` on a stand-in socket. */
const rawStatus = (write: (socket: Socket) => void): number => {
  let written = ''
  const socket = { writable: true, end: (text: string) => void (written = text), destroy: () => {} }
  write(socket as unknown as Socket)
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(written)?.[1])
}

const nodeHostStatuses = (): number[] => {
  let expectation = 0
  const response = { writeHead: (status: number) => void (expectation = status), end: () => {} }
  answerExpectation(
    { headers: { expect: '200-ok' } } as unknown as IncomingMessage,
    response as unknown as ServerResponse,
  )
  return [
    ...['ERR_HTTP_REQUEST_TIMEOUT', 'HPE_HEADER_OVERFLOW', 'HPE_INVALID_HEADER_TOKEN'].map((code) =>
      rawStatus((socket) => answerClientError(Object.assign(new Error(code), { code }), socket)),
    ),
    rawStatus((socket) => answerConnect({} as IncomingMessage, socket)),
    expectation,
    requestErrorResponse(new RequestError('Missing host header')).status,
  ]
}

describe('docs/reference/errors.md', () => {
  it('has the table of codes', () => {
    expect(documented.size).toBeGreaterThan(0)
  })

  it('gives each status the code the server answers with', () => {
    for (const [status, code] of documented) expect({ status, code }).toEqual({ status, code: errorCodeFor(status) })
  })

  it('lists every status the server answers with an Error body, and no other', () => {
    const literals = serverSources.flatMap((text) =>
      [...text.matchAll(/\b(?:ApiError|errorJson|writeRawError)\(\s*(?:socket,\s*)?(\d{3})\b/g)].map((m) =>
        Number(m[1]),
      ),
    )
    const produced = new Set([...Object.keys(errorCodes).map(Number), ...literals, ...nodeHostStatuses()])
    expect([...documented.keys()].sort()).toEqual([...produced].sort())
  })

  it('names every code of its own the server gives a status', () => {
    const own = serverSources.flatMap((text) => [...text.matchAll(/\bcode: '([a-z_]+)'/g)].map((m) => m[1] ?? ''))
    expect(own.length).toBeGreaterThan(0)
    for (const code of own) expect(page).toContain(`\`${code}\``)
  })
})
