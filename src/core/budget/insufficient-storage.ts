import { ApiError } from '../http/errors.js'
import type { BudgetPart, StorageRefusal } from './storage-refusal.js'

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 1)} MiB`

const named: Record<BudgetPart, string> = {
  pets: 'pets',
  rules: 'fault rules',
  sessions: 'sessions',
  streams: 'event-stream backlogs',
  deprecations: 'deprecation records',
  rateLimits: 'rate-limit windows',
}

// How to free each part, the largest user first.
const freeing: Record<BudgetPart, string> = {
  pets: 'reset sessions (POST /__admin/reset) or delete them (DELETE /__admin/sessions/{name})',
  rules: 'delete fault rules (DELETE /__admin/faults) or delete sessions (DELETE /__admin/sessions/{name})',
  sessions: 'delete sessions you no longer use (DELETE /__admin/sessions/{name})',
  streams: 'close event streams (GET /__admin/requests/stream) that read nothing',
  deprecations: 'delete sessions you no longer use (DELETE /__admin/sessions/{name})',
  rateLimits: 'delete sessions you no longer use (DELETE /__admin/sessions/{name})',
}

/**
 * The one place a refusal of the memory budget becomes an answer: 507
 * `insufficient_storage`, naming what is full and how to free it. The write
 * changed nothing. A tenant's refusal names its quota (`quota.memoryMiB`), its
 * use, what is free, and how the tenant frees it with its own admin token; it
 * names no other tenant.
 */
export const insufficientStorage = (refusal: StorageRefusal): ApiError => {
  const { largest, tenant } = refusal
  const need =
    `${named[refusal.part]} need ${mib(refusal.neededBytes)} more and ${mib(refusal.freeBytes)} is free; ` +
    `${named[largest.part]} hold the most (${mib(largest.bytes)}). Nothing was changed.`
  if (tenant !== undefined) {
    return new ApiError(
      507,
      `Tenant ${tenant.name} uses ${mib(tenant.usedBytes)} of its memory quota of ${mib(tenant.quotaBytes)} ` +
        `(quota.memoryMiB): ${need} To free it, ${freeing[largest.part]}, with a ${tenant.name} admin token; ` +
        `or ask the operator for a larger quota.memoryMiB.`,
    )
  }
  const budget =
    refusal.reservedBytes === undefined
      ? `The memory budget (${mib(refusal.budgetBytes)}, --max-memory)`
      : `The memory budget of the sessions of no tenant (${mib(refusal.budgetBytes)}: --max-memory less ` +
        `the tenants' quotas, ${mib(refusal.reservedBytes)})`
  return new ApiError(
    507,
    `${budget} is full: ${need} To free it, ${freeing[largest.part]}; or start with a larger --max-memory.`,
  )
}
