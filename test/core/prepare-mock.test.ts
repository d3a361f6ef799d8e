import type { ValidateFunction } from 'ajv'
import { describe, expect, it } from 'vitest'
import { type AppOptions, createApp, prepareMock } from '../../src/core/app.js'
import { bundledSpec } from '../../src/core/spec/bundled-spec.js'
import { specFromDocument } from '../../src/core/spec/spec.js'
import { onePet } from '../helpers/fixtures.js'
import { bearer } from '../helpers/auth.js'

const routesOf = (app: ReturnType<typeof createApp>) => app.routes.map(({ method, path }) => `${method} ${path}`)

/** The bundled contract's document changed by `edit`, as a Spec (validators that accept anything). */
const editedSpec = (edit: (document: Record<string, any>) => void) => {
  const document = structuredClone(bundledSpec().document)
  edit(document)
  const accept = Object.assign(() => true, { errors: null }) as unknown as ValidateFunction
  return specFromDocument(document, '', () => accept)
}

describe('prepareMock (createApp in two steps, for src/msw/)', () => {
  it('registers the routes on the first build only: the same app, routed as createApp routes it', () => {
    const prepared = prepareMock()
    const before = prepared.build().routes.length
    const app = prepared.build()
    expect(app).toBe(prepared.build())
    expect(app.routes).toHaveLength(before)
    expect(routesOf(app)).toEqual(routesOf(createApp()))
  })

  it('hands out the sessions and contract the app works on before its routes exist', async () => {
    const prepared = prepareMock({ pets: onePet() })
    prepared.sessions.default.replacePets([{ id: 5, name: 'e', categoryId: 2 }])
    const res = await prepared.build().request('/v1/pets', { headers: bearer() })
    expect(await res.json()).toEqual([{ id: 5, name: 'e', categoryId: 2 }])
    expect(prepared.spec).toBe(bundledSpec())
  })

  const cyclic = editedSpec((document) => {
    document['x-self'] = document
  })
  it.each<[string, AppOptions, string | RegExp]>([
    ['a bad rate limit', { rateLimit: { limit: 0, windowSeconds: 60 } }, 'rateLimit.limit must be an integer'],
    ['a bad clock', { clock: 'soon' }, 'clock must be'],
    [
      'an operation petstore-mock does not implement',
      {
        spec: editedSpec((document) => {
          document['paths']['/toys'] = { get: { operationId: 'listToys', responses: { '200': { description: 'ok' } } } }
        }),
      },
      'openapi.yaml defines listToys, which petstore-mock does not implement',
    ],
    [
      'an x-sunset that is no date',
      {
        spec: editedSpec((document) => {
          document['paths']['/pets/{petId}']['get']['x-sunset'] = 'someday'
        }),
      },
      'Invalid time value',
    ],
    ['a document JSON cannot represent', { spec: cyclic }, /circular/],
  ])('throws at once, as createApp does, for %s', (_, options, message) => {
    expect(() => prepareMock(options)).toThrow(message)
    expect(() => createApp(options)).toThrow(message)
  })
})
