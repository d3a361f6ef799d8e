import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { answerOf, useBothHosts } from '../../helpers/both-hosts.js'
import { bearer } from '../../helpers/auth.js'

// A missing body is a 400 ("Request body is required") whatever the Content-Type says: its absence is
// checked before its media type. A body of the wrong type is still a 415, a large one included.
const apiKey = bearer('test-key')
const admin = bearer('admin-secret')
const hosts = useBothHosts(['--api-key', 'test-key', '--admin-token', 'admin-secret', '--body-limit', '100'], {
  apiKeys: ['test-key'],
  adminToken: 'admin-secret',
  bodyLimit: 100,
})

const error = (status: number, code: string, message: string) => ({
  status,
  // Every answer but the panel's files carries the no-script headers (issue 40 §1).
  headers: [
    ['content-security-policy', "sandbox; default-src 'none'"],
    ['content-type', 'application/json'],
    ['x-content-type-options', 'nosniff'],
  ],
  body: JSON.stringify({ code, message, status }),
})
const required = (what: string) => error(400, 'bad_request', `Request body is required: ${what}.`)
const notJson = error(415, 'unsupported_media_type', 'Request body must be JSON; send Content-Type: application/json.')

type Row = [label: string, path: string, init: RequestInit, expected: ReturnType<typeof error>]

const rows: Row[] = [
  ['createPet, no body, no Content-Type', '/v1/pets', { method: 'POST', headers: apiKey }, required('a JSON object')],
  [
    'createPet, no body, Content-Type: application/json',
    '/v1/pets',
    { method: 'POST', headers: { ...apiKey, 'Content-Type': 'application/json' } },
    required('a JSON object'),
  ],
  [
    'createPet, no body, Content-Type: text/plain',
    '/v1/pets',
    { method: 'POST', headers: { ...apiKey, 'Content-Type': 'text/plain' } },
    required('a JSON object'),
  ],
  [
    'createPet, zero bytes, Content-Type: text/plain',
    '/v1/pets',
    { method: 'POST', headers: { ...apiKey, 'Content-Type': 'text/plain' }, body: '' },
    required('a JSON object'),
  ],
  [
    'createPet, a body without Content-Type',
    '/v1/pets',
    { method: 'POST', headers: apiKey, body: new TextEncoder().encode('{"name":"a","categoryId":1}') },
    notJson,
  ],
  [
    'createPet, a blank body as text/plain (present, of the wrong type)',
    '/v1/pets',
    { method: 'POST', headers: { ...apiKey, 'Content-Type': 'text/plain' }, body: ' ' },
    notJson,
  ],
  [
    'createPet, a body beyond the limit as text/plain',
    '/v1/pets',
    { method: 'POST', headers: { ...apiKey, 'Content-Type': 'text/plain' }, body: 'x'.repeat(1000) },
    notJson,
  ],
  [
    'POST /__admin/faults, no body, no Content-Type',
    '/__admin/faults',
    { method: 'POST', headers: admin },
    required('a JSON object'),
  ],
  [
    'PUT /__admin/clock, no body, no Content-Type',
    '/__admin/clock',
    { method: 'PUT', headers: admin },
    required('a JSON object'),
  ],
  [
    'PUT /__admin/state, no body, no Content-Type',
    '/__admin/state',
    { method: 'PUT', headers: admin },
    required('the state'),
  ],
  [
    'PUT /__admin/state, no body, Content-Type: text/plain',
    '/__admin/state',
    { method: 'PUT', headers: { ...admin, 'Content-Type': 'text/plain' } },
    required('the state'),
  ],
  [
    'PUT /__admin/state, a body as text/plain',
    '/__admin/state',
    { method: 'PUT', headers: { ...admin, 'Content-Type': 'text/plain' }, body: 'pets: []' },
    error(
      415,
      'unsupported_media_type',
      'The state is YAML or JSON; send Content-Type: application/yaml or application/json.',
    ),
  ],
  [
    'PUT /__admin/snapshot, no body, no Content-Type',
    '/__admin/snapshot',
    { method: 'PUT', headers: admin },
    required('a snapshot'),
  ],
]

describe.each(hosts)('a missing body on $name', (host) => {
  it.each(rows)('%s', async (_, path, init, expected) => {
    const before = await (await host.fetch('/__admin/state', { headers: admin })).text()
    expect(await answerOf(await host.fetch(path, init))).toEqual(expected)
    expect(await (await host.fetch('/__admin/state', { headers: admin })).text()).toBe(before)
  })

  it('is journaled as the same 400 with or without a JSON Content-Type', async () => {
    await host.fetch('/__admin/requests', { method: 'DELETE', headers: admin })
    await host.fetch('/v1/pets', { method: 'POST', headers: apiKey })
    await host.fetch('/v1/pets', { method: 'POST', headers: { ...apiKey, 'Content-Type': 'application/json' } })
    const { requests } = (await (await host.fetch('/__admin/requests', { headers: admin })).json()) as {
      requests: { operation: string; status: number; body: unknown }[]
    }
    expect(requests.map(({ operation, status, body }) => ({ operation, status, body }))).toEqual([
      { operation: 'createPet', status: 400, body: '' },
      { operation: 'createPet', status: 400, body: '' },
    ])
  })
})

// What `curl -X POST` sends: no Content-Length, no Transfer-Encoding, no Content-Type (fetch always sends one).
describe('a bodiless POST on the socket', () => {
  it('answers 400, not 415', async () => {
    const { host, port } = new URL(hosts[0]!.url()!)
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1')
      let received = ''
      const timer = setTimeout(() => {
        socket.destroy()
        reject(new Error(`no answer within 20 s: ${JSON.stringify(received)}`))
      }, 20_000)
      socket.on('data', (chunk) => (received += chunk))
      socket.on('close', () => {
        clearTimeout(timer)
        resolve(received)
      })
      socket.on('error', reject)
      socket.write(
        `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer test-key\r\nConnection: close\r\n\r\n`,
      )
    })
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request')
    expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe(
      '{"code":"bad_request","message":"Request body is required: a JSON object.","status":400}',
    )
  })
})
