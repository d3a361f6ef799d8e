import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importGraph } from '../helpers/import-graph.js'

// Issue 38: one control surface. The QA panel and msw's controls are built on the typed client
// (src/client), whose types are generated from admin-openapi.yaml; what a control takes is checked
// once, by the admin routes.

const graph = importGraph(fileURLToPath(new URL('../../src', import.meta.url)))
const importsOf = (prefix: string) =>
  [...graph].flatMap(([file, targets]) => (file.startsWith(prefix) ? targets.map((t) => `${file} -> ${t}`) : []))

describe('one control surface', () => {
  it('the QA panel knows the server through the typed client and the generated types only, no core module', () => {
    expect(importsOf('panel/').filter((edge) => / -> core\//.test(edge))).toEqual([])
    expect(importsOf('panel/api/admin-client')).toEqual(
      expect.arrayContaining([expect.stringMatching(/ -> client\/mock-client\.ts$/)]),
    )
  })

  it("msw's controls are the typed client, and check nothing themselves", () => {
    expect(importsOf('msw/controls')).toEqual(
      expect.arrayContaining([expect.stringMatching(/ -> client\/mock-client\.ts$/)]),
    )
    expect(importsOf('msw/controls').filter((edge) => / -> core\//.test(edge))).toEqual([])
  })

  it('the typed client imports nothing of the core: its types are the generated ones', () => {
    expect(importsOf('client/').filter((edge) => / -> core\//.test(edge))).toEqual([])
  })
})
