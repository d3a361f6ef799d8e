import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { checkTenantPools, checkTenants } from '../../../src/core/tenants/check-tenants.js'
import type { Tenant } from '../../../src/core/tenants/tenant.js'

const example = (kind: 'yaml' | 'json'): unknown => {
  const text = readFileSync(new URL(`../../../examples/tenants/tenants.${kind}`, import.meta.url), 'utf8')
  return kind === 'yaml' ? parse(text) : JSON.parse(text)
}

const tenant = (over: Record<string, unknown> = {}) => ({
  name: 'team-a',
  sessions: ['team-a-*'],
  apiKeys: ['key-a'],
  adminTokens: [{ secret: 'adm-a' }],
  quota: { sessions: 2, memoryMiB: 8, journalMiB: 4, streams: 2, held: 5 },
  ...over,
})
const other = (over: Record<string, unknown> = {}) =>
  tenant({ name: 'team-b', sessions: ['team-b-*'], apiKeys: ['key-b'], adminTokens: [{ secret: 'adm-b' }], ...over })

describe('checkTenants', () => {
  it('reads the issue example, in YAML and in the same shape as JSON, to the same tenants', () => {
    const fromYaml = checkTenants(example('yaml')) as Tenant[]
    expect(fromYaml.map((t) => t.name)).toEqual(['team-a', 'team-b'])
    expect(fromYaml[0]!.adminTokens).toEqual([
      { secret: 'adm-a-1', access: 'write' },
      { secret: 'ro-a-1', access: 'read' },
    ])
    expect(fromYaml[1]!.adminTokens[1]).toEqual({ secret: 'met-b-1', access: 'metrics' })
    expect(fromYaml[1]!.quota).toEqual({ sessions: 5, memoryMiB: 8, journalMiB: 4, streams: 2, held: 5 })
    expect(checkTenants(example('json'))).toEqual(fromYaml)
  })

  it.each([
    ['not a mapping', [], 'must be a mapping with one field, tenants'],
    ['an unknown top-level field', { tenants: [], extra: 1 }, '(top level).extra: unknown field'],
    ['tenants not a list', { tenants: {} }, 'tenants: must be a list'],
    ['a bad name', { tenants: [tenant({ name: 'a b' })] }, 'tenants[0].name: must be 1 to 64'],
    ['no globs', { tenants: [tenant({ sessions: [] })] }, 'tenants[0].sessions: must name at least one glob'],
    ['a bad glob', { tenants: [tenant({ sessions: ['team/a'] })] }, 'tenants[0].sessions[0]: must be a glob'],
    ['a bad key', { tenants: [tenant({ apiKeys: ['a b'] })] }, 'tenants[0].apiKeys[0]: must be a bearer token'],
    [
      'a bad access',
      { tenants: [tenant({ adminTokens: [{ secret: 's', access: 'all' }] })] },
      'tenants[0].adminTokens[0].access: must be one of write, read, metrics',
    ],
    [
      'a token field unknown',
      { tenants: [tenant({ adminTokens: [{ secret: 's', scope: 'x' }] })] },
      'tenants[0].adminTokens[0].scope: unknown field',
    ],
    [
      'a quota missing',
      { tenants: [tenant({ quota: { sessions: 1, memoryMiB: 1, journalMiB: 1, streams: 1 } })] },
      'tenants[0].quota.held: is required',
    ],
    [
      'a fractional count',
      { tenants: [tenant({ quota: { sessions: 1.5, memoryMiB: 1, journalMiB: 1, streams: 1, held: 1 } })] },
      'tenants[0].quota.sessions: must be a whole number',
    ],
    [
      'no sessions',
      { tenants: [tenant({ quota: { sessions: 0, memoryMiB: 1, journalMiB: 1, streams: 1, held: 1 } })] },
      'tenants[0].quota.sessions: must be at least 1',
    ],
    [
      'a negative MiB',
      { tenants: [tenant({ quota: { sessions: 1, memoryMiB: -1, journalMiB: 1, streams: 1, held: 1 } })] },
      'tenants[0].quota.memoryMiB: must be a number of MiB above 0',
    ],
    [
      'overlapping globs',
      { tenants: [tenant(), other({ sessions: ['team-*'] })] },
      'tenants[1].sessions[0]: "team-*" overlaps tenants[0].sessions[0] "team-a-*": a session has one tenant',
    ],
    [
      'a key used twice',
      { tenants: [tenant(), other({ apiKeys: ['key-a'] })] },
      'tenants[1].apiKeys[0]: this secret is also used by tenants[0].apiKeys[0]',
    ],
    [
      'a key that is also a token',
      { tenants: [tenant({ adminTokens: [{ secret: 'key-a' }] })] },
      'tenants[0].adminTokens[0].secret: this secret is also used by tenants[0].apiKeys[0]',
    ],
    ['a name used twice', { tenants: [tenant(), other({ name: 'team-a' })] }, 'tenants[1].name: "team-a" is also'],
  ])('refuses %s, naming the entry and field', (_, document, message) => {
    const checked = checkTenants(document)
    expect(typeof checked).toBe('string')
    expect(checked).toContain(message)
    // Never a secret in the sentence.
    expect(checked).not.toMatch(/key-a|adm-a/)
  })

  it('refuses a secret that is also a --api-key or --admin-token', () => {
    expect(checkTenants({ tenants: [tenant()] }, ['adm-a'])).toBe(
      'tenants[0].adminTokens[0].secret: this secret is also used by a --api-key or --admin-token; every secret must be used once',
    )
  })
})

describe('checkTenantPools', () => {
  const pools = { budgetBytes: 64 * 2 ** 20, maxSessions: 100, streams: 100, held: 1000 }
  const tenants = checkTenants(example('yaml')) as Tenant[]

  it('accepts the example against --max-memory 64', () => {
    expect(checkTenantPools(tenants, pools)).toBeUndefined()
  })

  it.each([
    [
      { budgetBytes: 16 * 2 ** 20 },
      'quota.memoryMiB and quota.journalMiB add up to 24 MiB, more than the memory budget of 16.00 MiB',
    ],
    [{ maxSessions: 6 }, "the tenants' quota.sessions add up to 7, more than 6 (--max-sessions)"],
    [{ streams: 3 }, "the tenants' quota.streams add up to 4, more than 3"],
    [{ held: 9 }, "the tenants' quota.held add up to 10, more than 9"],
  ])('refuses an overcommit: %o', (over, message) => {
    expect(checkTenantPools(tenants, { ...pools, ...over })).toContain(message)
  })
})
