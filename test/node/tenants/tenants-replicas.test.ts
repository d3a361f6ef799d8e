import { afterAll, beforeAll, describe } from 'vitest'
import { startRedis, type RedisServer } from '../../helpers/redis-server.js'
import { startReplicas } from '../../helpers/replicas.js'
import { exampleTenantsArgs, tenantScenario, type TenantHosts } from '../../helpers/tenant-scenario.js'

// Issue 39's example file on two replicas of one Redis: team A on one, team B on the other.
describe('the tenants example on two replicas of one Redis (real sockets)', () => {
  let redis: RedisServer
  let stop: () => Promise<void>
  let hosts: TenantHosts
  beforeAll(async () => {
    redis = await startRedis()
    const started = await startReplicas(redis.url, 2, { args: exampleTenantsArgs })
    stop = started.stop
    hosts = { a: started.replicas[0]!.url, b: started.replicas[1]!.url }
  }, 60_000)
  afterAll(async () => {
    await stop?.()
    await redis?.dispose()
  })

  tenantScenario(() => hosts)
})
