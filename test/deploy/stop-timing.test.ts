import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { configDefaults } from '../../src/node/config/config.js'

// The orchestrators' stop timing against the server's drain (issue 41 §1): Kubernetes and compose
// must leave the server its grace before they kill it, and nothing may set the drain or the grace
// apart from the defaults these timings were chosen for (docs/scale-out.md#stopping-a-replica).
// merge: compose's replicas share their settings through a YAML merge key (<<: *replica).
const read = (path: string) =>
  parse(readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8'), { merge: true })

/** `30s`, `1m30s` as seconds (compose's duration format, the units it uses here). */
const seconds = (duration: string): number => {
  const match = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(duration)
  if (!match || duration === '') throw new Error(`not a duration: ${duration}`)
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0)
}

describe('stop timing', () => {
  it('the defaults: a drain that covers endpoint removal, and a grace past it, below both orchestrators’ kill', () => {
    // 5 s of drain, then 20 s for what is in flight.
    expect({ drain: configDefaults.drainSeconds, grace: configDefaults.graceSeconds }).toEqual({ drain: 5, grace: 25 })
    // The drain is at least the keep-alive timeout: a connection idle since before the signal is
    // closed by its own timeout (which clients expect) before the server stops accepting.
    expect(configDefaults.drainSeconds * 1000).toBeGreaterThanOrEqual(configDefaults.keepAliveTimeout)
  })

  it('Kubernetes: terminationGracePeriodSeconds is past the grace, no preStop, the drain and grace left at their defaults', () => {
    const deployment = read('deploy/kubernetes/deployment.yaml')
    const pod = deployment.spec.template.spec
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(configDefaults.graceSeconds)
    const [container] = pod.containers
    expect(container.lifecycle?.preStop).toBeUndefined()
    const names = (container.env as { name: string }[]).map((variable) => variable.name)
    expect(names).not.toContain('PETSTORE_MOCK_DRAIN_SECONDS')
    expect(names).not.toContain('PETSTORE_MOCK_GRACE_SECONDS')
  })

  it('compose: every replica’s stop_grace_period is past the grace', () => {
    const compose = read('deploy/compose.yaml')
    const replicas = Object.entries(compose.services as Record<string, Record<string, unknown>>).filter(([name]) =>
      name.startsWith('replica-'),
    )
    expect(replicas.length).toBe(3)
    for (const [name, service] of replicas) {
      expect(service['stop_grace_period'], name).toBeDefined()
      expect(seconds(String(service['stop_grace_period']))).toBeGreaterThan(configDefaults.graceSeconds)
      const environment = service['environment'] as Record<string, string>
      expect(environment['PETSTORE_MOCK_DRAIN_SECONDS']).toBeUndefined()
    }
  })
})
