import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { createApp } from '../../../src/core/app.js'
import { assertContract } from '../../helpers/contract.js'
import { type LoadBalancer, sharedProxyConf, startLoadBalancer } from '../../helpers/nginx.js'
import { runScenario } from '../../helpers/port-scenario.js'
import { type RedisServer, startRedis } from '../../helpers/redis-server.js'
import { readStreamUntil, startReplicas } from '../../helpers/replicas.js'
import { bearer } from '../../helpers/auth.js'
import { checkStore } from '../../../src/node/store/store-option.js'

const deploy = (path: string) => fileURLToPath(new URL(`../../../deploy/${path}`, import.meta.url))

interface ComposeService {
  image?: string
  build?: { context: string }
  environment?: Record<string, string>
  volumes?: string[]
  depends_on?: unknown
  command?: string[]
}

describe('deploy/compose.yaml', () => {
  const compose = parse(readFileSync(deploy('compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>
    volumes: Record<string, unknown>
  }
  const replicas = Object.entries(compose.services).filter(([name]) => name.startsWith('replica-'))

  it('runs Redis with its append-only file on a volume, three replicas of one image on it, and nginx', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['nginx', 'redis', 'replica-1', 'replica-2', 'replica-3'])
    expect(compose.services['redis']!.command).toEqual([
      'redis-server',
      '--appendonly',
      'yes',
      '--save',
      '',
      '--maxmemory',
      '384mb',
      '--maxmemory-policy',
      'noeviction',
      '--requirepass',
      redisPassword,
    ])
    expect(compose.services['redis']!.volumes).toEqual(['redis-data:/data'])
    expect(compose.volumes).toHaveProperty('redis-data')
    expect(new Set(replicas.map(([, s]) => s.image)).size).toBe(1)
    expect(compose.services['replica-1']!.build).toEqual({ context: '..' })
    for (const [, service] of replicas) {
      expect(service.environment).toMatchObject({
        PETSTORE_MOCK_STORE: `redis://:${redisPassword}@redis:6379`,
        PETSTORE_MOCK_HOST: '0.0.0.0',
        PETSTORE_MOCK_PORT: '4010',
      })
      // Issue 28: shared, so never open; compose refuses to start without PETSTORE_MOCK_ADMIN_TOKEN.
      expect(service.environment).toMatchObject({ PETSTORE_MOCK_OPEN_ADMIN: 'false' })
      expect(service.environment!['PETSTORE_MOCK_ADMIN_TOKEN']).toMatch(/^\$\{PETSTORE_MOCK_ADMIN_TOKEN:\?/)
      expect(service.depends_on).toEqual({ redis: { condition: 'service_healthy' } })
    }
  })

  // Issue 41 §4: Redis asks for a password, one variable compose refuses to start without.
  const redisPassword = '${PETSTORE_MOCK_REDIS_PASSWORD:?set PETSTORE_MOCK_REDIS_PASSWORD, the Redis password (hex)}'

  it('asks for the Redis password everywhere from one required variable; the health check authenticates', () => {
    const redis = compose.services['redis']!
    expect(redis.environment).toEqual({ REDISCLI_AUTH: redisPassword })
    expect((redis as { healthcheck?: { test: string[] } }).healthcheck!.test).toEqual([
      'CMD-SHELL',
      'redis-cli ping | grep -qx PONG',
    ])
    // Redis's port is not published: only the replicas (same network) reach it.
    expect(redis).not.toHaveProperty('ports')
    for (const [, service] of replicas) {
      const store = service.environment!['PETSTORE_MOCK_STORE']!
      // Interpolated as compose does with a hex password, it is a store URL the command takes.
      const password = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4'
      const url = store.replace(redisPassword, password)
      expect(checkStore(url)).toBe(url)
      expect(new URL(url).password).toBe(password)
    }
  })

  it('points nginx at every replica, round robin, with the proxy configuration the test below uses', () => {
    const volumes = compose.services['nginx']!.volumes!
    expect(volumes).toEqual([
      './nginx/nginx.conf:/etc/nginx/nginx.conf:ro',
      './nginx/petstore-proxy.conf:/etc/nginx/petstore-proxy.conf:ro',
    ])
    expect(deploy('nginx/petstore-proxy.conf')).toBe(sharedProxyConf)
    const conf = readFileSync(deploy('nginx/nginx.conf'), 'utf8')
    const servers = [...conf.matchAll(/^\s*server (\S+);$/gm)].map((m) => m[1])
    expect(servers).toEqual(replicas.map(([name, s]) => `${name}:${s.environment!['PETSTORE_MOCK_PORT']}`))
    expect(conf).toContain('include /etc/nginx/petstore-proxy.conf;')
    // An idle connection is closed by nginx before a replica closes it (Node's 5 s): no request is
    // re-sent (petstore-proxy.conf), so none may go out on a connection being closed.
    expect(conf).toMatch(/^\s*keepalive_timeout 4s;$/m)
    expect(readFileSync(sharedProxyConf, 'utf8')).toMatch(/^\s*proxy_next_upstream off;$/m)
    // Round robin is nginx's default: no other balancing method is named.
    expect(conf).not.toMatch(/\b(ip_hash|hash|least_conn|random)\b/)
  })
})

describe('three replicas behind nginx (Debian nginx on loopback, the shared proxy configuration)', () => {
  let redis: RedisServer
  let group: Awaited<ReturnType<typeof startReplicas>>
  let lb: LoadBalancer

  beforeAll(async () => {
    redis = await startRedis()
    group = await startReplicas(redis.url, 3, { args: ['--seed', '7', '--delay', '0-0'] })
    lb = await startLoadBalancer(group.replicas.map((r) => new URL(r.url).host))
  }, 60_000)

  afterAll(async () => {
    await lb?.stop()
    await group?.stop()
    await redis?.dispose()
  })

  it('answers the port scenario exactly as one in-memory server, every answer within the contract, spread over all three', async () => {
    const expected = await runScenario(createApp({ seed: 7, delay: { min: 0, max: 0 } }))
    const through = {
      request: async (path: string, init: RequestInit) => {
        const res = await fetch(`${lb.url}${path}`, init)
        await assertContract(init.method ?? 'GET', path, res)
        return res
      },
    }
    const got = await runScenario(through)
    expect(got).toEqual(expected)
    expect(new Set(lb.upstreams())).toEqual(new Set(group.replicas.map((r) => new URL(r.url).host)))
  })

  it('closes the connection unanswered when a replica resets it, and re-sends the request to no other replica', async () => {
    const session = { 'X-Mock-Session': 'reset-once' }
    const rule = await fetch(`${lb.url}/__admin/faults`, {
      method: 'POST',
      headers: { ...session, 'Content-Type': 'application/json' },
      body: JSON.stringify({ fault: 'connection_reset', times: 1 }),
    })
    expect(rule.status).toBe(201)
    // Not nginx's HTML 502, and not an answer from another replica with the fault used up.
    await expect(fetch(`${lb.url}/v1/pets/3`, { headers: { ...bearer(), ...session } })).rejects.toThrow('fetch failed')
    expect((await fetch(`${lb.url}/v1/pets/3`, { headers: { ...bearer(), ...session } })).status).toBe(200)
    const journal = await (await fetch(`${lb.url}/__admin/requests`, { headers: session })).json()
    // Newest first; a reset answered nothing (status 0).
    expect(journal.requests.map((r: { path: string; status: number }) => [r.path, r.status])).toEqual([
      ['/v1/pets/3', 200],
      ['/v1/pets/3', 0],
    ])
  })

  it("leaves a body above 1 MiB to the replica: its 413 Error, not nginx's page", async () => {
    const res = await fetch(`${lb.url}/v1/pets`, {
      method: 'POST',
      headers: { ...bearer(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(1024 * 1024), categoryId: 1 }),
    })
    await assertContract('POST', '/v1/pets', res)
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ code: 'payload_too_large', status: 413 })
  })

  it('streams the journal through the load balancer while requests land on any replica', async () => {
    const text = await readStreamUntil(
      `${lb.url}/__admin/requests/stream`,
      (seen) => (seen.match(/"path":"\/v1\/pets\/3"/g) ?? []).length >= 3,
      async () => {
        for (let i = 0; i < 3; i++) await fetch(`${lb.url}/v1/pets/3`, { headers: bearer() })
      },
    )
    expect(text.match(/event: request/g)).toHaveLength(3)
  })
})
