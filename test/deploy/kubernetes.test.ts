import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Secret, Service } from 'kubernetes-models/v1'
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1'
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1'
import { describe, expect, it } from 'vitest'
import { parse, parseAllDocuments } from 'yaml'

// The manifests checked against the Kubernetes API's JSON schemas (kubernetes-models' validate())
// and for what an operator relies on. No cluster here: `podman kube play` cannot run them without a
// Redis image, and images are never pulled on these machines (docs/scale-out.md).
const dir = fileURLToPath(new URL('../../deploy/kubernetes/', import.meta.url))

interface Manifest {
  apiVersion: string
  kind: string
  metadata: { name: string; labels?: Record<string, string> }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any
  stringData?: Record<string, string>
}

const models: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
}

const kustomization = parse(readFileSync(`${dir}kustomization.yaml`, 'utf8')) as { resources: string[] }
const manifests: Manifest[] = kustomization.resources.flatMap((file) =>
  parseAllDocuments(readFileSync(`${dir}${file}`, 'utf8')).map((doc) => doc.toJS() as Manifest),
)
const find = (kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name)
  if (!found) throw new Error(`no ${kind} ${name}`)
  return found
}

describe('deploy/kubernetes', () => {
  it('the kustomization lists every manifest of the folder', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    expect([...kustomization.resources].sort()).toEqual(files.sort())
  })

  it.each(manifests.map((m) => [`${m.kind} ${m.metadata.name}`, m] as const))(
    '%s is valid against the Kubernetes schema',
    (_, manifest) => {
      const Model = models[`${manifest.apiVersion}/${manifest.kind}`]
      expect(Model, `${manifest.apiVersion} ${manifest.kind}`).toBeDefined()
      expect(() => new Model!(manifest as never).validate()).not.toThrow()
    },
  )

  // The API's schemas allow unknown fields (a cluster refuses them only with strict field validation):
  // what they catch is a wrong type or a missing required field.
  it('the validator refuses a wrong type and a missing required field', () => {
    const deployment = find('Deployment', 'petstore-mock')
    const unnamed = structuredClone(deployment)
    delete unnamed.spec.template.spec.containers[0].name
    expect(() => new Deployment(unnamed as never).validate()).toThrow(/name/)
    const wrongType = structuredClone(deployment)
    wrongType.spec.replicas = 'three'
    expect(() => new Deployment(wrongType as never).validate()).toThrow()
  })

  it('runs three replicas with the store URL from the Secret, probes on /__admin/health/ready and /live, and resource requests', () => {
    const deployment = find('Deployment', 'petstore-mock')
    expect(deployment.spec.replicas).toBe(3)
    const [container] = deployment.spec.template.spec.containers
    const env = Object.fromEntries(
      container.env.map((e: { name: string; value?: string; valueFrom?: unknown }) => [e.name, e.value ?? e.valueFrom]),
    )
    expect(env['PETSTORE_MOCK_STORE']).toEqual({ secretKeyRef: { name: 'petstore-mock-store', key: 'STORE' } })
    expect(env).toMatchObject({
      PETSTORE_MOCK_STORE_PREFIX: 'petstore-mock',
      PETSTORE_MOCK_HOST: '0.0.0.0',
      PETSTORE_MOCK_PORT: '4010',
    })
    // Every variable is one the command reads by its current name (no deprecation note in the pods' logs).
    for (const name of Object.keys(env)) expect(name).toMatch(/^PETSTORE_MOCK_/)
    // Issue 28: a shared set-up is never open; its admin tokens come from a Secret mounted as a file.
    expect(env).toMatchObject({
      PETSTORE_MOCK_OPEN_ADMIN: 'false',
      PETSTORE_MOCK_ADMIN_TOKENS_FILE: '/etc/petstore-mock/admin/tokens',
    })
    const mount = container.volumeMounts!.find((m: { name: string }) => m.name === 'admin-tokens')!
    expect(mount).toMatchObject({ mountPath: '/etc/petstore-mock/admin', readOnly: true })
    const volume = deployment.spec!.template.spec!.volumes!.find((v: { name: string }) => v.name === 'admin-tokens')!
    expect(volume.secret).toEqual({ secretName: 'petstore-mock-admin' })
    expect(find('Secret', 'petstore-mock-admin').stringData!['tokens']).toMatch(/=\*:read$/m)
    expect(find('Secret', 'petstore-mock-store').stringData!['STORE']).toMatch(/^redis:\/\//)
    // Readiness follows the store (503 while Redis is away or refuses writes); liveness never does.
    expect(container.readinessProbe.httpGet).toEqual({ path: '/__admin/health/ready', port: 'http' })
    expect(container.livenessProbe.httpGet).toEqual({ path: '/__admin/health/live', port: 'http' })
    // Liveness is patient: an outage of Redis makes pods unready, not restarted.
    expect(container.livenessProbe.periodSeconds * container.livenessProbe.failureThreshold).toBeGreaterThanOrEqual(60)
    expect(container.ports).toEqual([{ name: 'http', containerPort: 4010 }])
    expect(container.resources.requests).toEqual({ cpu: '100m', memory: '96Mi' })
  })

  it("lets /__admin answer the Service's names from any namespace (issue 27): no ALLOWED_HOSTS on 0.0.0.0", async () => {
    const [container] = find('Deployment', 'petstore-mock').spec.template.spec.containers
    const env = container.env as { name: string; value?: string }[]
    expect(env.find((e) => e.name === 'PETSTORE_MOCK_HOST')?.value).toBe('0.0.0.0')
    // Off loopback and without ALLOWED_HOSTS, the Host check is off (src/node/config/admin-access.ts):
    // petstore-mock.<ns>.svc.cluster.local reaches /__admin as petstore-mock does. docs/recipes/kubernetes.md
    // names the Service's names with `*` labels instead, and its test asks as each of them.
    expect(env.map((e) => e.name)).not.toContain('PETSTORE_MOCK_ALLOWED_HOSTS')
    const { adminAccess } = await import('../../src/node/config/admin-access.js')
    const { configDefaults } = await import('../../src/node/config/config.js')
    expect(adminAccess({ ...configDefaults, log: 'silent', host: '0.0.0.0', allowedHosts: [] }).allowedHosts).toBe(
      'any',
    )
  })

  it('selects the pods by one label everywhere: Deployment, Service, PodDisruptionBudget', () => {
    const labels = { 'app.kubernetes.io/name': 'petstore-mock' }
    expect(find('Deployment', 'petstore-mock').spec.template.metadata.labels).toEqual(labels)
    expect(find('Deployment', 'petstore-mock').spec.selector.matchLabels).toEqual(labels)
    expect(find('Service', 'petstore-mock').spec.selector).toEqual(labels)
    const budget = find('PodDisruptionBudget', 'petstore-mock')
    expect(budget.spec.selector.matchLabels).toEqual(labels)
    expect(budget.spec.minAvailable).toBe(2)
    expect(find('Service', 'petstore-mock').spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http' }])
  })

  it('keeps Redis in a StatefulSet with its append-only file on a volume, reached as the Secret says', () => {
    const redis = find('StatefulSet', 'petstore-redis')
    const [container] = redis.spec.template.spec.containers
    expect(container.args).toEqual([
      '--appendonly',
      'yes',
      '--save',
      '',
      '--dir',
      '/data',
      '--maxmemory',
      '384mb',
      '--maxmemory-policy',
      'noeviction',
    ])
    // Redis refuses writes below its container's limit (512Mi) instead of being killed (issue 29).
    expect(container.resources.limits.memory).toBe('512Mi')
    expect(container.volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }])
    expect(redis.spec.volumeClaimTemplates[0].metadata.name).toBe('data')
    expect(container.resources.requests).toBeDefined()
    const service = find('Service', 'petstore-redis')
    expect(service.spec.clusterIP).toBe('None')
    expect(redis.spec.serviceName).toBe('petstore-redis')
    // <pod>.<governing service>: the StatefulSet's first pod.
    expect(find('Secret', 'petstore-mock-store').stringData!['STORE']).toBe(
      `redis://${redis.metadata.name}-0.${service.metadata.name}:${service.spec.ports[0].port}`,
    )
  })
})
