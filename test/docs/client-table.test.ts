import { describe, expect, it } from 'vitest'
import { createMockClient } from '../../src/client/index.js'
import { adminDocument } from '../../src/generated/admin-document.js'
import { codeSpans, pageTables, readPage } from '../helpers/doc-tables.js'

// The typed client's table in docs/ci.md: one row per method of the client, each naming the admin
// route it calls, which admin-openapi.yaml must have. A method added to the client and not to the
// table, or a route the document does not know, fails here.

const page = 'docs/ci.md'

/** Every method of a client, by its path (`faults.add`), found by walking the object it is. */
const clientMethods = (): string[] => {
  const client = createMockClient({ baseUrl: 'http://127.0.0.1:4010' }) as unknown as Record<string, unknown>
  const walk = (value: Record<string, unknown>, prefix: string): string[] =>
    Object.entries(value).flatMap(([name, member]) =>
      typeof member === 'function'
        ? [`${prefix}${name}`]
        : member !== null && typeof member === 'object'
          ? walk(member as Record<string, unknown>, `${prefix}${name}.`)
          : [],
    )
  return walk(client, '').sort()
}

const table = () => {
  const found = pageTables(readPage(page)).find((t) => t.header[0] === 'method' && t.header[1] === 'route')
  if (!found) throw new Error(`${page}: no table of the typed client (method | route | …)`)
  return found
}

/** The method a row names: its first code span up to the parenthesis (`faults.add(rule)` → `faults.add`). */
const methodOf = (row: string[]): string => /^([\w.]+)\(/.exec(codeSpans(row[0] ?? '')[0] ?? '')?.[1] ?? ''

describe(`the typed client's table in ${page}`, () => {
  it('has one row for each method of the client, and no other', () => {
    const rows = table().rows.map(methodOf)
    expect(rows.filter((name, i) => rows.indexOf(name) !== i)).toEqual([])
    expect([...rows].sort()).toEqual(clientMethods())
  })

  it("names for each a route of admin-openapi.yaml, with the route's method", () => {
    const paths = adminDocument['paths'] as Record<string, Record<string, unknown>>
    const unknown = table().rows.flatMap((row) =>
      codeSpans(row[1] ?? '')
        .map((span) => /^(GET|PUT|POST|DELETE) (\/__admin\/[^?\s]*)/.exec(span))
        .filter((match) => match !== null)
        .filter(([, method, path]) => paths[path!]?.[method!.toLowerCase()] === undefined)
        .map(([span]) => `${methodOf(row)}: ${span}`),
    )
    expect(unknown).toEqual([])
    // Every row but withSession's names a route.
    const without = table().rows.filter((row) => !/`(GET|PUT|POST|DELETE) \/__admin\//.test(row[1] ?? ''))
    expect(without.map(methodOf)).toEqual(['withSession'])
  })

  it('says what requests.list resolves with: the array of the paged answer, not the answer', () => {
    const row = table().rows.find((r) => methodOf(r) === 'requests.list')
    expect(row?.[2]).toContain('the array `requests` of the answer `{ requests, next, dropped }`')
  })
})
