import { keptPrefix } from '../http/own-copy.js'
import type { SpecOperation } from '../spec/spec.js'

/** What identifies a caller in the report: the redacted Authorization and the User-Agent. */
export interface DeprecationClient {
  authorization: string | null
  userAgent: string | null
}

/** One client's use of a deprecated operation. */
export interface ClientUsage extends DeprecationClient {
  calls: number
  firstSeen: string
  lastSeen: string
}

/** One deprecated operation: who called it, how often, when. */
export interface DeprecationReport {
  operation: string
  sunset: string | null
  replacement: string | null
  calls: number
  firstSeen: string | null
  lastSeen: string | null
  clients: ClientUsage[]
  /** Calls of clients beyond the per-operation cap. */
  other: { calls: number; lastSeen: string | null }
}

/** What {@link DeprecationLog.record} noticed: a client's first call, or the first call beyond the cap. */
export type FirstCall = 'client' | 'overflow' | undefined

/** Distinct clients kept per operation; the rest are counted together as `other`. */
export const maxClientsPerOperation = 1000
/** Longest User-Agent kept, so a client entry stays small (a copy: see own-copy.ts). */
export const maxUserAgentChars = 256

/** How often and when something was called: the calls, the first and the last (epoch ms). */
export interface CallCount {
  calls: number
  firstSeen: number
  lastSeen: number
}

interface Usage {
  total?: CallCount
  clients: Map<string, CallCount & DeprecationClient>
  other?: CallCount
  /** The latest known client as it was given (User-Agent uncut): a client calls again and again. */
  last?: { client: DeprecationClient; counter: CallCount }
}

const count = (counter: CallCount | undefined, now: number): CallCount => {
  if (!counter) return { calls: 1, firstSeen: now, lastSeen: now }
  counter.calls++
  counter.lastSeen = now
  return counter
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString())

/** An operation's counts: all its calls, each client's (in the order the report lists them), those beyond the cap. */
export interface OperationCounts {
  total?: CallCount | undefined
  clients: readonly (CallCount & DeprecationClient)[]
  other?: CallCount | undefined
}

/** One deprecated operation's report from its counts, whichever store kept them. */
export const operationReport = (
  operation: SpecOperation,
  { total, clients, other }: OperationCounts,
): DeprecationReport => ({
  operation: operation.id,
  sunset: operation.sunset?.toISOString() ?? null,
  replacement: operation.replacement ?? null,
  calls: total?.calls ?? 0,
  firstSeen: iso(total?.firstSeen),
  lastSeen: iso(total?.lastSeen),
  clients: clients.map((c) => ({
    authorization: c.authorization,
    userAgent: c.userAgent,
    calls: c.calls,
    firstSeen: iso(c.firstSeen)!,
    lastSeen: iso(c.lastSeen)!,
  })),
  other: { calls: other?.calls ?? 0, lastSeen: iso(other?.lastSeen) },
})

/**
 * Who calls the deprecated operations of one session, counted apart from the
 * journal (so rotation loses nothing) and bounded: at most `maxClients`
 * distinct clients per operation. Times are real time. Knows nothing of HTTP.
 */
export class DeprecationLog {
  readonly #operations: readonly SpecOperation[]
  readonly #usage = new Map<string, Usage>()
  readonly #maxClients: number

  constructor(operations: readonly SpecOperation[], maxClients = maxClientsPerOperation) {
    this.#operations = operations.filter((op) => op.deprecated)
    this.#maxClients = maxClients
  }

  /** Counts a call of `operation` by `client` at `now` (epoch ms). */
  record(operation: string, client: DeprecationClient, now: number): FirstCall {
    let usage = this.#usage.get(operation)
    if (!usage) this.#usage.set(operation, (usage = { clients: new Map() }))
    usage.total = count(usage.total, now)
    const { last } = usage
    if (last && last.client.authorization === client.authorization && last.client.userAgent === client.userAgent) {
      return void count(last.counter, now)
    }
    const userAgent = client.userAgent === null ? null : keptPrefix(client.userAgent, maxUserAgentChars)
    const key = JSON.stringify([client.authorization, userAgent])
    const known = usage.clients.get(key)
    if (known) {
      usage.last = { client, counter: known }
      return void count(known, now)
    }
    if (usage.clients.size < this.#maxClients) {
      const added = { authorization: client.authorization, userAgent, ...count(undefined, now) }
      usage.clients.set(key, added)
      usage.last = { client, counter: added }
      return 'client'
    }
    const first = usage.other === undefined
    usage.other = count(usage.other, now)
    return first ? 'overflow' : undefined
  }

  /** Every deprecated operation, called or not; clients by calls, most first. */
  report(): DeprecationReport[] {
    return this.#operations.map((op) => {
      const usage = this.#usage.get(op.id)
      // Most calls first; a stable sort keeps ties in the order of their first call.
      const clients = [...(usage?.clients.values() ?? [])].sort((a, b) => b.calls - a.calls)
      return operationReport(op, { total: usage?.total, clients, other: usage?.other })
    })
  }
}
