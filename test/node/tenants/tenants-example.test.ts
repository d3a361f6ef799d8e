import { afterAll, beforeAll, describe } from 'vitest'
import { spawnServer, type SpawnedServer } from '../../helpers/spawn-server.js'
import { exampleTenantsArgs, tenantScenario, type TenantHosts } from '../../helpers/tenant-scenario.js'

// Issue 39's example file on the memory store: one server, team A hostile, team B measured.
describe('the tenants example on the memory store (one server, real sockets)', () => {
  let server: SpawnedServer
  let hosts: TenantHosts
  beforeAll(async () => {
    server = await spawnServer([...exampleTenantsArgs, '--log', 'silent'])
    hosts = { a: server.url, b: server.url }
  })
  afterAll(() => server?.stop())

  tenantScenario(() => hosts)
})
