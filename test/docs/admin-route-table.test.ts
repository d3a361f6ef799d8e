import { describe, expect, it } from 'vitest'
import { adminDocument } from '../../src/generated/admin-document.js'
import { codeSpans, pageTables, readPage } from '../helpers/doc-tables.js'

// admin-openapi.yaml is the one list of /__admin routes and their answers (the contract checks read
// it: test/helpers/admin-document.ts). The route table of docs/reference/admin-api.md stays as the
// page people read; it must say the same routes and the same 2xx/3xx answers, or this fails.

const page = 'docs/reference/admin-api.md'
const methods = ['get', 'put', 'post', 'delete', 'patch'] as const

/** `METHOD /path: statuses` for each route and its 2xx/3xx answers, sorted. */
type RouteAnswers = string[]

const line = (method: string, path: string, statuses: number[]): string =>
  `${method} ${path}: ${[...new Set(statuses)].sort((a, b) => a - b).join(', ')}`

const successes = (statuses: number[]): number[] => statuses.filter((status) => status >= 200 && status < 400)

/** The routes and 2xx/3xx answers of the admin document. */
const documentRoutes = (document: Record<string, any>): RouteAnswers =>
  Object.entries(document['paths'] as Record<string, Record<string, any>>)
    .flatMap(([path, item]) =>
      methods
        .filter((method) => item[method] !== undefined)
        .map((method) =>
          line(
            method.toUpperCase(),
            path,
            successes(
              Object.keys(item[method].responses)
                .filter((status) => /^\d{3}$/.test(status))
                .map(Number),
            ),
          ),
        ),
    )
    .sort()

/**
 * The routes and 2xx/3xx answers of the page's route table ("Route" … "Answers"). A Route cell lists
 * code spans: `GET /__admin/x`, or methods sharing one path (`GET`, `PUT`, `DELETE /__admin/clock`).
 * Answers are split by `;`: one group per route when there are as many, else all of them for each.
 */
const tableRoutes = (markdown: string): RouteAnswers => {
  const table = pageTables(markdown).find((t) => t.header[0] === 'Route' && t.header.includes('Answers'))
  if (!table) throw new Error(`${page}: no route table (Route … Answers)`)
  const answersAt = table.header.indexOf('Answers')
  return table.rows
    .flatMap((row) => {
      const routes: { method: string; path: string }[] = []
      let shared: string[] = []
      for (const span of codeSpans(row[0] ?? '')) {
        const [, method, path] = /^([A-Z]+)(?:\s+(\/\S*))?$/.exec(span) ?? []
        if (method === undefined) throw new Error(`${page}: a route I cannot read: ${span}`)
        if (path === undefined) shared.push(method)
        else {
          routes.push(...[...shared, method].map((m) => ({ method: m, path })))
          shared = []
        }
      }
      const groups = (row[answersAt] ?? '')
        .split(';')
        .map((group) => [...group.matchAll(/\b\d{3}\b/g)].map((m) => Number(m[0])))
      if (groups.length > 1 && groups.length !== routes.length && routes.length > 1)
        throw new Error(`${page}: answers I cannot match to routes: ${row[answersAt]}`)
      return routes.map((route, i) =>
        line(route.method, route.path, successes(groups.length === routes.length ? groups[i]! : groups.flat())),
      )
    })
    .sort()
}

describe(`the route table of ${page} and admin-openapi.yaml`, () => {
  it('list the same routes with the same 2xx/3xx answers', () => {
    expect(tableRoutes(readPage(page))).toEqual(documentRoutes(adminDocument))
  })

  it('a table that drifts from the document fails: an answer changed, a route missing, a route added', () => {
    const markdown = readPage(page)
    const document = documentRoutes(adminDocument)
    const changed = markdown.replace(/(\| `POST \/__admin\/seed` .*?\| )204, 507/, '$1200, 507')
    expect(changed).not.toBe(markdown)
    expect(tableRoutes(changed)).not.toEqual(document)
    expect(tableRoutes(changed)).toContain('POST /__admin/seed: 200')
    const missing = markdown.replace(/^\| `GET \/__admin\/deprecations` .*\n/m, '')
    expect(missing).not.toBe(markdown)
    expect(document.filter((route) => !tableRoutes(missing).includes(route))).toEqual([
      'GET /__admin/deprecations: 200',
    ])
    const added = markdown.replace('`GET /__admin/metrics`', '`GET /__admin/metrics`, `GET /__admin/metrics/raw`')
    expect(tableRoutes(added).filter((route) => !document.includes(route))).toEqual(['GET /__admin/metrics/raw: 200'])
  })

  it('reads rows of shared paths, several routes and per-route answers', () => {
    const markdown = [
      '| Route | Does | Answers |',
      '| --- | --- | --- |',
      '| `GET`, `PUT`, `DELETE /__admin/clock` | the clock | 200, the clock |',
      '| `GET /__admin/state`, `PUT /__admin/state` | pets | 200; 204, 507 |',
      '| `POST /__admin/faults` | add | 201, the rule; 507 |',
    ].join('\n')
    expect(tableRoutes(markdown)).toEqual([
      'DELETE /__admin/clock: 200',
      'GET /__admin/clock: 200',
      'GET /__admin/state: 200',
      'POST /__admin/faults: 201',
      'PUT /__admin/clock: 200',
      'PUT /__admin/state: 204',
    ])
  })
})
