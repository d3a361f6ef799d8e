import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Secret, Service } from 'kubernetes-models/v1'
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1'
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1'
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1'
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2'
import { parseCommandLine } from '../../src/node/cli/cli.js'
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
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
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
    const policy = structuredClone(find('NetworkPolicy', 'petstore-redis'))
    policy.spec.ingress[0].ports[0].port = { number: 6379 }
    expect(() => new NetworkPolicy(policy as never).validate()).toThrow()
    const autoscaler = structuredClone(find('HorizontalPodAutoscaler', 'petstore-mock'))
    delete autoscaler.spec.maxReplicas
    expect(() => new HorizontalPodAutoscaler(autoscaler as never).validate()).toThrow(/maxReplicas/)
  })

  it('leaves its replica count to the autoscaler, with the store URL from the Secret, probes on /__admin/health/ready and /live, and resource requests', () => {
    const deployment = find('Deployment', 'petstore-mock')
    // A count in the manifest would undo the autoscaler's on every apply (the autoscaler owns it: 3 to 6).
    expect(deployment.spec).not.toHaveProperty('replicas')
    expect(find('HorizontalPodAutoscaler', 'petstore-mock').spec.minReplicas).toBe(3)
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
      '--requirepass',
      '$(REDIS_PASSWORD)',
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

  // Issue 41 §4: the shipped Redis was open to every pod of the cluster.
  describe('Redis is closed: a password from a Secret, a NetworkPolicy, a disruption budget', () => {
    const envOf = (container: { env?: { name: string; value?: string; valueFrom?: unknown }[] }) =>
      Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]))
    const passwordRef = { secretKeyRef: { name: 'petstore-redis-password', key: 'password' } }

    it('Redis starts with requirepass from the Secret; its probe authenticates with it', () => {
      const [container] = find('StatefulSet', 'petstore-redis').spec.template.spec.containers
      const env = envOf(container)
      expect(env['REDIS_PASSWORD']).toEqual(passwordRef)
      expect(env['REDISCLI_AUTH']).toEqual(passwordRef)
      const args = container.args as string[]
      expect(args[args.indexOf('--requirepass') + 1]).toBe('$(REDIS_PASSWORD)')
      // Every $(VAR) the kubelet expands is defined before (an undefined one stays literal: a wrong password).
      for (const [, name] of args.join(' ').matchAll(/\$\(([A-Z_]+)\)/g)) expect(env).toHaveProperty(name!)
      expect(container.readinessProbe.exec.command.join(' ')).toMatch(/redis-cli ping/)
      expect(find('Secret', 'petstore-redis-password').stringData!['password']).toMatch(/^replace-me/)
    })

    it('the mock reads the same Secret from a mounted file; the store URL carries no password', async () => {
      const deployment = find('Deployment', 'petstore-mock')
      const [container] = deployment.spec.template.spec.containers
      const env = envOf(container)
      const file = env['PETSTORE_MOCK_REDIS_PASSWORD_FILE'] as string
      const mount = container.volumeMounts.find((m: { name: string }) => m.name === 'redis-password')
      expect(mount).toMatchObject({ readOnly: true })
      const volume = deployment.spec.template.spec.volumes.find((v: { name: string }) => v.name === 'redis-password')
      expect(volume.secret.secretName).toBe('petstore-redis-password')
      const item = volume.secret.items.find((i: { key: string }) => i.key === 'password')
      expect(file).toBe(`${mount.mountPath}/${item.path}`)
      const store = find('Secret', 'petstore-mock-store').stringData!['STORE']!
      expect(new URL(store).password).toBe('')
      // What the command makes of the pod's variables: the store and the password file, no conflict.
      const variables = Object.fromEntries(
        Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      )
      const command = parseCommandLine([], { ...variables, PETSTORE_MOCK_STORE: store }, { isTTY: false })
      expect(command.run === 'serve' && command.config).toMatchObject({ store, redisPasswordFile: file })
    })

    it('a NetworkPolicy admits only the mock’s pods to Redis, on the Redis port', () => {
      const policy = find('NetworkPolicy', 'petstore-redis')
      const redis = find('StatefulSet', 'petstore-redis')
      const mock = find('Deployment', 'petstore-mock')
      expect(policy.spec.podSelector).toEqual({ matchLabels: redis.spec.template.metadata.labels })
      expect(policy.spec.policyTypes).toEqual(['Ingress'])
      expect(policy.spec.ingress).toEqual([
        {
          from: [{ podSelector: { matchLabels: mock.spec.template.metadata.labels } }],
          ports: [{ protocol: 'TCP', port: redis.spec.template.spec.containers[0].ports[0].containerPort }],
        },
      ])
    })

    it('a NetworkPolicy admits only the mock’s HTTP port to the mock (from anywhere: the teams’ jobs)', () => {
      const policy = find('NetworkPolicy', 'petstore-mock')
      const mock = find('Deployment', 'petstore-mock')
      expect(policy.spec.podSelector).toEqual({ matchLabels: mock.spec.template.metadata.labels })
      expect(policy.spec.policyTypes).toEqual(['Ingress'])
      expect(policy.spec.ingress).toEqual([
        { ports: [{ protocol: 'TCP', port: mock.spec.template.spec.containers[0].ports[0].containerPort }] },
      ])
    })

    it('a PodDisruptionBudget keeps Redis from being evicted by a drain', () => {
      const budget = find('PodDisruptionBudget', 'petstore-redis')
      expect(budget.spec.selector.matchLabels).toEqual(
        find('StatefulSet', 'petstore-redis').spec.template.metadata.labels,
      )
      expect(budget.spec.maxUnavailable).toBe(0)
    })

    it('an example HorizontalPodAutoscaler scales the Deployment on CPU, never below the disruption budget', () => {
      const autoscaler = find('HorizontalPodAutoscaler', 'petstore-mock')
      const deployment = find('Deployment', 'petstore-mock')
      expect(autoscaler.spec.scaleTargetRef).toEqual({
        apiVersion: deployment.apiVersion,
        kind: 'Deployment',
        name: deployment.metadata.name,
      })
      // Above minAvailable, so that a drain can always evict one; it alone sets the Deployment's count.
      expect(autoscaler.spec.minReplicas).toBeGreaterThan(
        find('PodDisruptionBudget', 'petstore-mock').spec.minAvailable,
      )
      expect(deployment.spec.replicas).toBeUndefined()
      expect(autoscaler.spec.maxReplicas).toBeGreaterThan(autoscaler.spec.minReplicas)
      // CPU utilization is measured against the containers' requests: they must have one.
      expect(autoscaler.spec.metrics).toEqual([
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
      ])
      expect(deployment.spec.template.spec.containers[0].resources.requests.cpu).toBeDefined()
    })
  })
})
