import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { type RedisServer, startRedis } from '../../../helpers/redis-server.js'
import { type SpawnedServer, spawnServer } from '../../../helpers/spawn-server.js'
import { bearer } from '../../../helpers/auth.js'

// deploy/kubernetes's Redis wiring run for real, without a cluster: Debian's redis-server started with
// the StatefulSet's own arguments, $(VARS) expanded from the Secrets as the kubelet does, and the
// mock started with the Deployment's variables, its Secrets "mounted" as files of a temporary
// directory. Redis asks for the password; the mock has it from the file and serves.
const dir = fileURLToPath(new URL('../../../../deploy/kubernetes/', import.meta.url))

interface Manifest {
  kind: string
  metadata: { name: string }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any
  stringData?: Record<string, string>
}
interface EnvVar {
  name: string
  value?: string
  valueFrom?: { secretKeyRef: { name: string; key: string } }
}

const manifests: Manifest[] = [
  'redis-secret.yaml',
  'redis.yaml',
  'deployment.yaml',
  'store-secret.yaml',
  'admin-secret.yaml',
].flatMap((file) => parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((doc) => doc.toJS() as Manifest))
const find = (kind: string, name: string): Manifest =>
  manifests.find((m) => m.kind === kind && m.metadata.name === name)!
const secretValue = ({ name, key }: { name: string; key: string }): string => find('Secret', name).stringData![key]!

let work: string
let redis: RedisServer
let mock: SpawnedServer
const password = secretValue({ name: 'petstore-redis-password', key: 'password' })

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'petstore-manifests-'))
  const [redisContainer] = find('StatefulSet', 'petstore-redis').spec.template.spec.containers
  const redisEnv = Object.fromEntries(
    (redisContainer.env as EnvVar[]).map((e) => [e.name, e.value ?? secretValue(e.valueFrom!.secretKeyRef)]),
  )
  // The kubelet's $(VAR) expansion; --dir is the test's own directory (startRedis sets it).
  const args = (redisContainer.args as string[]).map((arg) =>
    arg.replace(/\$\(([A-Z_]+)\)/g, (_, name: string) => redisEnv[name]!),
  )
  const at = args.indexOf('--dir')
  if (at >= 0) args.splice(at, 2)
  redis = await startRedis(10_000, args)

  const deployment = find('Deployment', 'petstore-mock').spec.template.spec
  const [container] = deployment.containers
  // Each Secret volume as a directory of its keys; the variables that name a mounted file point there.
  const mounted: Record<string, string> = {}
  for (const mount of container.volumeMounts as { name: string; mountPath: string }[]) {
    const volume = deployment.volumes.find((v: { name: string }) => v.name === mount.name)
    const secret = find('Secret', volume.secret.secretName)
    const into = mkdtempSync(join(work, `${mount.name}-`))
    const items = (volume.secret.items as { key: string; path: string }[] | undefined) ?? [
      ...Object.keys(secret.stringData!).map((key) => ({ key, path: key })),
    ]
    for (const { key, path } of items) writeFileSync(join(into, path), secret.stringData![key]!)
    mounted[mount.mountPath] = into
  }
  const env: NodeJS.ProcessEnv = {}
  for (const e of container.env as EnvVar[]) {
    let value = e.value ?? secretValue(e.valueFrom!.secretKeyRef)
    for (const [path, into] of Object.entries(mounted))
      if (value.startsWith(`${path}/`)) value = into + value.slice(path.length)
    env[e.name] = value
  }
  // The Service's name resolves to this redis-server.
  const store = new URL(env['PETSTORE_MOCK_STORE']!)
  store.host = `127.0.0.1:${redis.port}`
  env['PETSTORE_MOCK_STORE'] = store.toString()
  // Flags win over the Deployment's 0.0.0.0:4010: loopback, any free port.
  mock = await spawnServer([], env)
}, 60_000)

afterAll(async () => {
  await mock?.stop()
  await redis?.dispose()
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('deploy/kubernetes: Redis with the password of its Secret, the mock with the same mounted', () => {
  it('Redis refuses a client without the password', () => {
    const answer = execFileSync('redis-cli', ['-p', String(redis.port), 'get', 'x'], { encoding: 'utf8' })
    expect(answer).toMatch(/NOAUTH/)
    // The readiness probe's own check, as the pod runs it (REDISCLI_AUTH from the Secret).
    const probe = execFileSync('redis-cli', ['-p', String(redis.port), 'ping'], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'], REDISCLI_AUTH: password },
    })
    expect(probe.trim()).toBe('PONG')
  })

  it('the mock, configured by the Deployment, serves on it and never prints the password', async () => {
    expect(mock.stderr()).toMatch(
      /store: redis:\/\/127\.0\.0\.1:\d+ \(prefix petstore-mock, password from \S+\/password\)/,
    )
    const created = await fetch(`${mock.url}/sessions/k8s/v1/pets`, {
      method: 'POST',
      headers: { ...bearer(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Wired', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    const read = await fetch(`${mock.url}/sessions/k8s/v1/pets/${id}`, { headers: bearer() })
    expect(await read.json()).toMatchObject({ id, name: 'Wired' })
    expect((await fetch(`${mock.url}/__admin/health/ready`)).status).toBe(200)
    expect(mock.stderr() + mock.stdout()).not.toContain(password)
  })
})
