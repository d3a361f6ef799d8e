import { request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import {
  adminAccess,
  adminAccessBanner,
  asHostName,
  asOrigin,
  isLoopback,
} from '../../../src/node/config/admin-access.js'
import { configDefaults, type Config } from '../../../src/node/config/config.js'
import { assertContract } from '../../helpers/contract.js'
import { spawnServer } from '../../helpers/spawn-server.js'

const config = (over: Partial<Config>): Config => ({ ...configDefaults, log: 'silent', ...over })

describe('the listen address decides the Host check', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.5.6.7', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['app.localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
    ['::ffff:10.0.0.1', false],
    ['petstore', false],
  ])('%s is loopback: %s', (host, expected) => {
    expect(isLoopback(host)).toBe(expected)
  })

  it.each([
    ['loopback, no names', '127.0.0.1', [], []],
    ['loopback, names', '::1', ['petstore'], ['petstore']],
    ['all interfaces, no names: off', '0.0.0.0', [], 'any'],
    ['all interfaces, names: on', '0.0.0.0', ['petstore', '.mock.test'], ['petstore', '.mock.test']],
    ['a LAN address, no names: off', '192.168.1.20', [], 'any'],
    ['a LAN address, names: it too', '192.168.1.20', ['mock.lan'], ['192.168.1.20', 'mock.lan']],
    ['another loopback address: it too', '127.0.0.2', [], ['127.0.0.2']],
    ['a loopback name: nothing added', 'LocalHost', [], []],
    ['IPv6 all interfaces, names', '::', ['mock.lan'], ['mock.lan']],
  ])('%s', (_, host, allowedHosts, expected) => {
    expect(adminAccess(config({ host, allowedHosts, adminCorsOrigins: ['http://qa.example'] }))).toEqual({
      allowedHosts: expected,
      adminCorsOrigins: ['http://qa.example'],
    })
  })

  it('the banner says which mode is active', () => {
    expect(adminAccessBanner(config({}))).toEqual([
      '  hosts: /__admin answers Host localhost, 127.0.0.1, [::1] only (DNS-rebinding check on)',
      '  pages: /__admin refuses pages of other origins',
    ])
    expect(adminAccessBanner(config({ host: '0.0.0.0', adminCorsOrigins: ['http://qa.example'] }))).toEqual([
      '  hosts: /__admin answers any Host (listening on 0.0.0.0, DNS-rebinding check off): on shared hosts set --admin-token and --allowed-hosts',
      '  pages: /__admin refuses pages of other origins but http://qa.example',
    ])
    expect(adminAccessBanner(config({ host: '0.0.0.0', allowedHosts: ['petstore'] }))[0]).toBe(
      '  hosts: /__admin answers Host localhost, 127.0.0.1, [::1], petstore only (DNS-rebinding check on)',
    )
  })
})

describe('option values', () => {
  it.each([
    ['http://localhost:5173', 'http://localhost:5173'],
    ['http://localhost:5173/', 'http://localhost:5173'],
    ['HTTPS://QA.Example', 'https://qa.example'],
    ['https://qa.example:443', 'https://qa.example'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['http://localhost:5173/app', undefined],
    ['http://localhost:5173?x', undefined],
    ['http://user@localhost', undefined],
    ['localhost:5173', undefined],
    ['ftp://files.example', undefined],
    ['null', undefined],
    ['*', undefined],
  ])('origin %s → %s', (text, expected) => {
    expect(asOrigin(text)).toBe(expected)
  })

  it.each([
    ['petstore', 'petstore'],
    ['PetStore.Local', 'petstore.local'],
    ['my_service', 'my_service'],
    ['.mock.test', '.mock.test'],
    ['10.0.0.5', '10.0.0.5'],
    ['::1', '[::1]'],
    ['[0:0::1]', '[::1]'],
    ['petstore:4010', undefined],
    ['http://petstore', undefined],
    ['petstore/x', undefined],
    ['petstore-mock.*', undefined],
    ['mock.*.*', undefined],
    ['mock.*.com', undefined],
    ['mock.a.*', undefined],
    ['petstore-mock.*.svc', undefined],
    ['petstore-mock.*.svc.local', 'petstore-mock.*.svc.local'],
    ['PetStore-Mock.*.SVC.cluster.local', 'petstore-mock.*.svc.cluster.local'],
    ['*', undefined],
    ['*.mock.test', undefined],
    ['petstore-mock.*x', undefined],
    ['.petstore-mock.*', undefined],
    ['a..b', undefined],
    ['localhost.', undefined],
    ['.', undefined],
    ['.[::1]', undefined],
    ['user@petstore', undefined],
  ])('host %s → %s', (text, expected) => {
    expect(asHostName(text)).toBe(expected)
  })
})

/** A request with a Host header of our choosing (fetch does not let one set Host), to 127.0.0.1. */
const requestWithHost = (url: string, host: string, path: string, method = 'GET', body?: string) =>
  new Promise<Response>((resolve, reject) => {
    const req = httpRequest(
      new URL(path, url),
      {
        method,
        headers: { Host: host, ...(body && { 'Content-Type': 'application/json', 'Content-Length': body.length }) },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () =>
          resolve(new Response(text, { status: res.statusCode ?? 0, headers: res.headers as Record<string, string> })),
        )
      },
    )
    req.on('error', reject)
    req.setTimeout(5000, () => req.destroy(new Error('timeout')))
    req.end(body)
  })

describe('the CLI on 127.0.0.1 (the default)', () => {
  it('refuses a rebound Host on /__admin and changes nothing, but answers loopback names and /v1', async () => {
    const server = await spawnServer(['--log', 'silent', '--allowed-hosts', 'petstore'])
    const port = new URL(server.url).port
    try {
      expect(server.stderr()).toContain(
        'hosts: /__admin answers Host localhost, 127.0.0.1, [::1], petstore only (DNS-rebinding check on)',
      )
      const refused = await requestWithHost(server.url, `evil.example:${port}`, '/__admin/state', 'PUT', '{"pets":[]}')
      await assertContract('PUT', '/__admin/state', refused)
      expect(refused.status).toBe(403)
      expect(await refused.json()).toMatchObject({ code: 'forbidden', status: 403 })
      expect((await requestWithHost(server.url, `evil.example:${port}`, '/__admin/requests')).status).toBe(403)
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'petstore:4010']) {
        expect((await requestWithHost(server.url, host, '/__admin/faults')).status, host).toBe(200)
      }
      expect((await requestWithHost(server.url, `evil.example:${port}`, '/__admin/health')).status).toBe(200)
      const pets = (await (await fetch(`${server.url}/__admin/state`)).json()) as { pets: unknown[] }
      expect(pets.pets).toHaveLength(12)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it('allows the admin origins it is given, with CORS', async () => {
    const server = await spawnServer(['--log', 'silent'], {
      PETSTORE_MOCK_ADMIN_CORS_ORIGIN: 'http://qa.example, http://localhost:5173',
    })
    try {
      expect(server.stderr()).toContain(
        'pages: /__admin refuses pages of other origins but http://qa.example, http://localhost:5173',
      )
      const allowed = await fetch(`${server.url}/__admin/faults`, { headers: { Origin: 'http://localhost:5173' } })
      expect(allowed.status).toBe(200)
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
      const refused = await fetch(`${server.url}/__admin/faults`, { headers: { Origin: 'http://evil.example' } })
      expect(refused.status).toBe(403)
      expect(refused.headers.get('access-control-allow-origin')).toBeNull()
    } finally {
      await server.stop()
    }
  })
})
