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

interface Counter {
  calls: number
  firstSeen: number
  lastSeen: number
}

interface Usage {
  total?: Counter
  clients: Map<string, Counter & DeprecationClient>
  other?: Counter
  /** The latest known client as it was given (User-Agent uncut): a client calls again and again. */
  last?: { client: DeprecationClient; counter: Counter }
}

const count = (counter: Counter | undefined, now: number): Counter => {
  if (!counter) return { calls: 1, firstSeen: now, lastSeen: now }
  counter.calls++
  counter.lastSeen = now
  return counter
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString())

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
      const clients = [...(usage?.clients.values() ?? [])]
        .sort((a, b) => b.calls - a.calls)
        .map((c) => ({
          authorization: c.authorization,
          userAgent: c.userAgent,
          calls: c.calls,
          firstSeen: iso(c.firstSeen)!,
          lastSeen: iso(c.lastSeen)!,
        }))
      return {
        operation: op.id,
        sunset: op.sunset?.toISOString() ?? null,
        replacement: op.replacement ?? null,
        calls: usage?.total?.calls ?? 0,
        firstSeen: iso(usage?.total?.firstSeen),
        lastSeen: iso(usage?.total?.lastSeen),
        clients,
        other: { calls: usage?.other?.calls ?? 0, lastSeen: iso(usage?.other?.lastSeen) },
      }
    })
  }
}
