import { describe, expect, it } from 'vitest'
import { contractApp } from '../../helpers/contract.js'
import { onePet } from '../../helpers/fixtures.js'

const pets = onePet()
const put = (body: string, contentType: string): RequestInit => ({
  method: 'PUT',
  headers: { 'Content-Type': contentType },
  body,
})

describe('PUT /__admin/state takes YAML as well as JSON (the QA panel uploads either file as is)', () => {
  it.each(['application/yaml', 'application/x-yaml', 'text/yaml; charset=utf-8'])(
    'a YAML body (%s) replaces the pets',
    async (type) => {
      const { request } = contractApp({ pets })
      const yaml =
        'pets:\n  - id: 7\n    name: Rex\n    categoryId: 2\n    status: sold\n  - { id: 9, name: Bo, categoryId: 1 }\n'
      expect((await request('/__admin/state', put(yaml, type))).status).toBe(204)
      expect(await (await request('/__admin/state')).json()).toEqual({
        pets: [
          { id: 7, name: 'Rex', categoryId: 2, status: 'sold' },
          { id: 9, name: 'Bo', categoryId: 1 },
        ],
      })
    },
  )

  it.each([
    [
      'bad YAML',
      'pets: [ {id: 1\n',
      'application/yaml',
      400,
      'Request body is not valid YAML: unexpected end of the stream within a flow collection at line 2, column 1',
    ],
    [
      'an integer YAML cannot give exactly',
      'pets:\n  - { id: 1, name: a, categoryId: 9007199254740993 }\n',
      'application/yaml',
      400,
      'state: entry 0: categoryId must be an integer between -9007199254740991 and 9007199254740991.',
    ],
    [
      'a field missing',
      'pets:\n  - { id: 1, name: a }\n',
      'application/yaml',
      400,
      'state: entry 0: categoryId is required.',
    ],
    ['no body', '', 'application/yaml', 400, 'Request body is required: the state.'],
    [
      'another type',
      'pets: []',
      'text/plain',
      415,
      'The state is YAML or JSON; send Content-Type: application/yaml or application/json.',
    ],
    ['bad JSON', '{"pets":', 'application/json', 400, /^Request body is not valid JSON/],
  ])('%s → %i in the server’s words, nothing replaced', async (_, body, type, status, message) => {
    const { request } = contractApp({ pets })
    const res = await request('/__admin/state', put(body, type))
    expect(res.status).toBe(status)
    const text = (await res.json()).message as string
    if (typeof message === 'string') expect(text).toBe(message)
    else expect(text).toMatch(message)
    expect(await (await request('/__admin/state')).json()).toEqual({ pets })
  })

  it('a body beyond the limit is a 413 before it is parsed', async () => {
    const { request } = contractApp({ pets, bodyLimit: 100 })
    const res = await request('/__admin/state', put(`pets: []\n#${'x'.repeat(200)}`, 'application/yaml'))
    expect(res.status).toBe(413)
  })
})
