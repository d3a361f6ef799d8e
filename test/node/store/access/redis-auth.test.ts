import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis } from '../../../../src/node/store/redis/redis-store.js'
import { freePort } from '../../../helpers/free-port.js'
import { type RedisServer, redisServerPath, startRedis } from '../../../helpers/redis-server.js'
import { binPath, type SpawnedServer, spawnServer } from '../../../helpers/spawn-server.js'
import { bearer } from '../../../helpers/auth.js'
import { readStreamUntil } from '../../../helpers/replicas.js'

// Issue 41 §4: the shared Redis has a password (requirepass, or an ACL user per team) and may be
// reached over TLS. Each case runs Debian's redis-server of its own; the mock takes the password from
// the URL or from a file (a mounted secret), trusts a CA from a file, and never prints the secret.
const password = 'pw-Kq8u3Zr1-never-printed'
const wrong = 'pw-wrong-Xy7-never-printed'
const auth = bearer()
let dir: string
let plain: RedisServer
let tls: RedisServer
let tlsPort: number
const started: SpawnedServer[] = []

/** A file of this test's temporary directory. */
const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-redis-auth-'))
  // Debian's redis-server is built with TLS (it would refuse --tls-port otherwise, and this suite fails).
  expect(execFileSync(redisServerPath, ['--version'], { encoding: 'utf8' })).toMatch(/^Redis server v=[7-9]\./)
  // A CA of this test's own and a certificate it signs for 127.0.0.1.
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=petstore-test-ca',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
  )
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', 'redis.key', '-out', 'redis.csr')
  file('san.cnf', 'subjectAltName=IP:127.0.0.1\n')
  openssl(
    'x509',
    '-req',
    '-in',
    'redis.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'san.cnf',
    '-out',
    'redis.crt',
  )
  plain = await startRedis(10_000, ['--requirepass', password])
  tlsPort = await freePort()
  tls = await startRedis(10_000, [
    '--requirepass',
    password,
    '--tls-port',
    String(tlsPort),
    '--tls-cert-file',
    join(dir, 'redis.crt'),
    '--tls-key-file',
    join(dir, 'redis.key'),
    '--tls-ca-cert-file',
    join(dir, 'ca.crt'),
    '--tls-auth-clients',
    'no',
  ])
  // An ACL user for one team: its own keys and channels only (docs/scale-out.md's ACL line).
  const admin = connectRedis(plain.url, 5000, { password })
  await admin.connect()
  try {
    await admin.call(
      'ACL',
      'SETUSER',
      'team-a',
      'on',
      `>${password}`,
      '~acl-a:*',
      '&acl-a:*',
      '+@all',
      '-@dangerous',
      '+info',
    )
  } finally {
    admin.disconnect()
  }
}, 60_000)

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop('SIGKILL')))
  await plain?.dispose()
  await tls?.dispose()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const serve = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<SpawnedServer> => {
  const server = await spawnServer(['--log', 'json', ...args], env)
  started.push(server)
  return server
}

/** A start that must fail: its exit code and output (bounded: 20 s). */
const refused = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [binPath, '--host', '127.0.0.1', '--port', '0', ...args],
      { env: { PATH: process.env['PATH'], ...env }, timeout: 20_000, killSignal: 'SIGKILL' },
      (_, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    )
  })

/** A pet created in a session and read back, on a started mock: the store took the write. */
const roundTrip = async (server: SpawnedServer, session: string): Promise<void> => {
  const created = await fetch(`${server.url}/sessions/${session}/v1/pets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Locked', categoryId: 1 }),
  })
  expect(created.status).toBe(201)
  const { id } = (await created.json()) as { id: number }
  const read = await fetch(`${server.url}/sessions/${session}/v1/pets/${id}`, { headers: auth })
  expect(read.status).toBe(200)
  expect(await read.json()).toMatchObject({ id, name: 'Locked' })
  expect((await fetch(`${server.url}/__admin/health/ready`)).status).toBe(200)
}

/**
 * The journal's event stream carries a request made after it opened: the pub/sub connection (a
 * second one, ioredis's duplicate) authenticated and, with rediss://, trusted the CA as well.
 */
const streams = async (server: SpawnedServer, session: string): Promise<void> => {
  const text = await readStreamUntil(
    `${server.url}/__admin/requests/stream`,
    (seen) => seen.includes('Streamed'),
    () =>
      fetch(`${server.url}/sessions/${session}/v1/pets`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Streamed', categoryId: 1 }),
      }).then((res) => expect(res.status).toBe(201)),
    15_000,
    { 'X-Mock-Session': session },
  )
  expect(text).toContain('Streamed')
}

/** Nothing the mock printed or answers about itself shows the password. */
const neverShows = async (server: SpawnedServer, ...secrets: string[]): Promise<void> => {
  const health = await (await fetch(`${server.url}/__admin/health`)).text()
  const metrics = await (await fetch(`${server.url}/__admin/metrics`)).text()
  for (const secret of secrets) {
    for (const text of [server.stderr(), server.stdout(), health, metrics]) expect(text).not.toContain(secret)
  }
}

const url = (server: RedisServer, credentials = '') => `redis://${credentials}127.0.0.1:${server.port}`

describe('Redis with requirepass', () => {
  it('the password in the URL: serves, the banner shows the store with *** for it', async () => {
    const server = await serve(['--store', url(plain, `:${password}@`), '--store-prefix', 'url-pw'])
    expect(server.stderr()).toContain(`store: redis://:***@127.0.0.1:${plain.port} (prefix url-pw)`)
    await roundTrip(server, 'team-a')
    await neverShows(server, password)
  })

  it('the password from --redis-password-file (one trailing newline dropped): serves, the banner names the file', async () => {
    const secret = file('password', `${password}\n`)
    const server = await serve(['--store', url(plain), '--redis-password-file', secret, '--store-prefix', 'file-pw'])
    expect(server.stderr()).toContain(
      `store: redis://127.0.0.1:${plain.port} (prefix file-pw, password from ${secret})`,
    )
    await roundTrip(server, 'team-a')
    await neverShows(server, password)
  })

  it('PETSTORE_MOCK_REDIS_PASSWORD_FILE does the same (a mounted secret in a pod)', async () => {
    const secret = file('password-env', password)
    const server = await serve([], {
      PETSTORE_MOCK_STORE: url(plain),
      PETSTORE_MOCK_REDIS_PASSWORD_FILE: secret,
      PETSTORE_MOCK_STORE_PREFIX: 'env-pw',
    })
    await roundTrip(server, 'team-b')
    await neverShows(server, password)
  })

  it('no password: exit 2, one line saying Redis requires one and where to put it', async () => {
    const run = await refused(['--store', url(plain)])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      `petstore-mock: the store redis://127.0.0.1:${plain.port} requires a password (Redis answered NOAUTH): ` +
        'put it in the URL (redis://[user]:password@host) or in a file named by --redis-password-file\n',
    )
  })

  it('a wrong password in the URL: exit 2, one line, the password hidden', async () => {
    const run = await refused(['--store', url(plain, `:${wrong}@`)])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      `petstore-mock: the store redis://:***@127.0.0.1:${plain.port} refused the user and password of the URL ` +
        '(Redis answered WRONGPASS: wrong password, unknown user, or user disabled)\n',
    )
    expect(run.stderr + run.stdout).not.toContain(wrong)
  })

  it('a wrong password in the file: exit 2 naming the file, never its content', async () => {
    const secret = file('wrong', `${wrong}\n`)
    const run = await refused(['--store', url(plain), '--redis-password-file', secret])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      `petstore-mock: the store redis://127.0.0.1:${plain.port} refused the user and password of --redis-password-file ${secret} ` +
        '(Redis answered WRONGPASS: wrong password, unknown user, or user disabled)\n',
    )
    expect(run.stderr).not.toContain(wrong)
  })

  it.each([
    ['empty', () => file('empty', '\n'), /--redis-password-file \S+empty is empty: a Redis password must have one/],
    ['missing', () => join(dir, 'no-such-file'), /--redis-password-file \S+no-such-file cannot be read: ENOENT/],
  ] as const)('a password file %s: exit 2 naming the file (before Redis is asked)', async (_, path, expected) => {
    const run = await refused(['--store', url(plain), '--redis-password-file', path()])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(expected)
    expect(run.stderr).not.toContain(password)
  })

  it('a password in the URL and a password file: exit 2, choose one (nothing is read or tried)', async () => {
    const run = await refused(['--store', url(plain, `:${password}@`), '--redis-password-file', file('both', password)])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      'petstore-mock: --redis-password-file and the password in --store both give the Redis password: choose one\n',
    )
  })
})

describe('Redis with an ACL user per team', () => {
  it('the user from the URL, its password from the file: serves on the prefix its ACL allows', async () => {
    const secret = file('team-a-password', password)
    const server = await serve([
      '--store',
      url(plain, 'team-a@'),
      '--redis-password-file',
      secret,
      '--store-prefix',
      'acl-a',
    ])
    expect(server.stderr()).toContain(`store: redis://team-a@127.0.0.1:${plain.port} (prefix acl-a, password from`)
    await roundTrip(server, 'team-a')
    await streams(server, 'team-a')
    await neverShows(server, password)
    // What it wrote is under its prefix: the keys its ACL allows, and only those.
    const admin = connectRedis(plain.url, 5000, { password })
    await admin.connect()
    try {
      expect((await admin.keys('acl-a:*')).length).toBeGreaterThan(0)
    } finally {
      admin.disconnect()
    }
  })

  it("the same user on another team's prefix: exit 2, Redis's NOPERM and the ACL it needs", async () => {
    const run = await refused(['--store', url(plain, `team-a:${password}@`), '--store-prefix', 'acl-b'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(
      new RegExp(
        `^petstore-mock: the store redis://team-a:\\*\\*\\*@127\\.0\\.0\\.1:${plain.port} lets this user connect but not use the mock's keys or commands \\(Redis answered: NOPERM [^\\n]*\\); its ACL needs ~<prefix>:\\* &<prefix>:\\* \\+@all -@dangerous \\+info \\(docs/scale-out\\.md\\)\\n$`,
      ),
    )
    expect(run.stderr).not.toContain(password)
  })

  it('an unknown user: exit 2, WRONGPASS', async () => {
    const run = await refused(['--store', url(plain, `team-z:${password}@`)])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/refused the user and password of the URL \(Redis answered WRONGPASS/)
    expect(run.stderr).not.toContain(password)
  })
})

describe('Redis over TLS (rediss://)', () => {
  const tlsUrl = () => `rediss://127.0.0.1:${tlsPort}`

  it('rediss:// with --redis-ca-file and the password file: serves over TLS', async () => {
    const server = await serve([
      '--store',
      tlsUrl(),
      '--redis-ca-file',
      join(dir, 'ca.crt'),
      '--redis-password-file',
      file('tls-password', password),
      '--store-prefix',
      'tls',
    ])
    expect(server.stderr()).toContain(
      `store: rediss://127.0.0.1:${tlsPort} (prefix tls, password from ${join(dir, 'tls-password')}, TLS trusting ${join(dir, 'ca.crt')})`,
    )
    await roundTrip(server, 'team-tls')
    await streams(server, 'team-tls')
    await neverShows(server, password)
    // The writes are in that Redis (read through its plain port).
    const admin = connectRedis(tls.url, 5000, { password })
    await admin.connect()
    try {
      expect((await admin.keys('tls:*')).length).toBeGreaterThan(0)
    } finally {
      admin.disconnect()
    }
  })

  it('rediss:// without the CA: exit 2, the certificate is not trusted, --redis-ca-file named', async () => {
    const run = await refused(['--store', `rediss://:${password}@127.0.0.1:${tlsPort}`])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      `petstore-mock: the store rediss://:***@127.0.0.1:${tlsPort} presented a certificate this replica does not trust ` +
        '(SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain): name the CA that signs it with ' +
        '--redis-ca-file, or check the host name in the URL\n',
    )
  })

  it('a CA file with a plain redis:// store: exit 2, write rediss://', async () => {
    const run = await refused(['--store', url(tls), '--redis-ca-file', join(dir, 'ca.crt')])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      'petstore-mock: --redis-ca-file is the CA of a TLS store, and --store is not TLS: write rediss://…, or drop it\n',
    )
  })

  // Neither error names the cause (Redis' TLS port resets a plain client; a plain port never answers a
  // handshake): the message adds what to check.
  it('redis:// to a port that speaks TLS: exit 1, the reset named, rediss:// suggested', async () => {
    const run = await refused(['--store', `redis://127.0.0.1:${tlsPort}`])
    expect(run.code).toBe(1)
    // The reset comes as the client writes its first command, or as it reads.
    expect(run.stderr).toMatch(
      new RegExp(
        `^petstore-mock: cannot start: the store redis://127\\.0\\.0\\.1:${tlsPort} cannot be reached: (write|read) ECONNRESET; ` +
          'if that port speaks TLS, write rediss://…\n$',
      ),
    )
  })

  it('rediss:// to a port that does not speak TLS: exit 1, the timeout named, redis:// suggested', async () => {
    const run = await refused(['--store', `rediss://127.0.0.1:${tls.port}`, '--redis-ca-file', join(dir, 'ca.crt')])
    expect(run.code).toBe(1)
    // Redis waits for the end of a command that never comes (the connection times out), unless it reads
    // one in the handshake's bytes and answers an error, which TLS then fails on.
    expect(run.stderr).toMatch(
      new RegExp(
        `^petstore-mock: cannot start: the store rediss://127\\.0\\.0\\.1:${tls.port} cannot be reached: ` +
          '(connect ETIMEDOUT|.*(EPROTO|ECONNRESET|ERR_SSL_|wrong version number).*); if that port does not speak TLS, write redis://…\n$',
      ),
    )
  })

  it('a CA file that holds no certificate: exit 2 naming it', async () => {
    const run = await refused(['--store', tlsUrl(), '--redis-ca-file', file('not-a-ca.pem', 'hello\n')])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/--redis-ca-file \S+not-a-ca\.pem holds no PEM certificate/)
  })
})
