// Smoke suite run against a container over its published port: node test/container/smoke.mjs <base-url>
// Runs every check (checks.mjs prints each) and exits non-zero when any failed.
import { check, client, finish } from './checks.mjs'

const base = process.argv[2]
const key = { Authorization: 'Bearer smoke-key' }
const json = { 'Content-Type': 'application/json' }
const call = client(base)

const list = await call('/v1/pets', { headers: key })
check(
  'list: 200 with the mounted fixtures',
  list.status === 200 && list.body.length === 2 && list.body[0].name === 'Mounted',
  JSON.stringify(list),
)

const created = await call('/v1/pets', {
  method: 'POST',
  headers: { ...key, ...json },
  body: '{"name":"Smoke","categoryId":3}',
})
check(
  'create: 201 with Location',
  created.status === 201 && created.headers.get('location') === `/v1/pets/${created.body?.id}`,
  JSON.stringify(created),
)
const read = await call(`/v1/pets/${created.body?.id}`, { headers: key })
check(
  'get the created pet',
  read.status === 200 && read.body.name === 'Smoke' && read.headers.get('sunset') !== null,
  JSON.stringify(read),
)

const unauthorized = await call('/v1/pets', { headers: { Authorization: 'Bearer not-the-key' } })
check(
  '401 for a key not configured by PETSTORE_MOCK_API_KEYS',
  unauthorized.status === 401 && unauthorized.body.code === 'unauthorized',
  JSON.stringify(unauthorized),
)

const missing = await call('/v1/pets/424242', { headers: key })
check('404 for an absent pet', missing.status === 404 && missing.body.code === 'not_found', JSON.stringify(missing))

const startup = await call('/v1/pets/7', { headers: key })
check('503 from the mounted start-up faults file', startup.status === 503, JSON.stringify(startup))

const rule = await call('/__admin/faults', {
  method: 'POST',
  headers: json,
  body: '{"operation":"listPets","status":429,"times":1}',
})
const faulted = await call('/v1/pets', { headers: key })
const after = await call('/v1/pets', { headers: key })
check(
  'fault injected through the admin API',
  rule.status === 201 && faulted.status === 429 && after.status === 200,
  JSON.stringify([rule, faulted.status, after.status]),
)

const session = { ...key, 'X-Mock-Session': 'smoke' }
const isolated = await call('/v1/pets', {
  method: 'POST',
  headers: { ...session, ...json },
  body: '{"name":"Isolated","categoryId":1}',
})
const inSession = await call('/v1/pets?limit=100', { headers: session })
const inDefault = await call('/v1/pets?limit=100', { headers: key })
check(
  'session-isolated create',
  isolated.status === 201 &&
    inSession.body.some((p) => p.name === 'Isolated') &&
    !inDefault.body.some((p) => p.name === 'Isolated'),
  JSON.stringify([isolated.status, inSession.body.length, inDefault.body.length]),
)

// YAML is loaded on first use (a chunk of the self-contained bundle): a snapshot out, a state in.
const snapshot = await fetch(`${base}/__admin/snapshot`, { headers: { Accept: 'application/yaml' } })
const snapshotText = await snapshot.text()
check(
  'snapshot as YAML',
  snapshot.status === 200 &&
    snapshot.headers.get('content-type')?.startsWith('application/yaml') &&
    snapshotText.startsWith('format: 1\n'),
  `${snapshot.status} ${snapshotText.slice(0, 200)}`,
)
const state = await fetch(`${base}/__admin/state`, {
  method: 'PUT',
  headers: { 'Content-Type': 'application/yaml', 'X-Mock-Session': 'yaml' },
  body: 'pets:\n  - { id: 5, name: FromYaml, categoryId: 2 }\n',
})
const yamlPets = await call('/v1/pets', { headers: { ...key, 'X-Mock-Session': 'yaml' } })
check(
  'state replaced from YAML',
  state.status === 204 && yamlPets.body?.length === 1 && yamlPets.body[0].name === 'FromYaml',
  JSON.stringify([state.status, await state.text(), yamlPets]),
)

finish()
