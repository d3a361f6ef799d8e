import type { ClientUsage, DeprecationReport } from '../../../core/lifecycle/deprecation-log.js'
import type { SpecOperation } from '../../../core/spec/spec.js'

interface Counter {
  calls: number
  firstSeen: number
  lastSeen: number
  order: number
}

const counter = (text: string | undefined): Counter | undefined => {
  if (text === undefined) return undefined
  const [calls, firstSeen, lastSeen, order] = text.split(',').map(Number) as number[]
  return { calls: calls!, firstSeen: firstSeen!, lastSeen: lastSeen!, order: order ?? 0 }
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString())

/**
 * The deprecation report from the counters a session keeps in Redis (see
 * noteDeprecatedScript): the same document as the memory store's, clients by
 * calls, most first, ties in order of first call.
 */
export const deprecationReport = (
  operations: readonly SpecOperation[],
  fields: Readonly<Record<string, string>>,
): DeprecationReport[] =>
  operations
    .filter((op) => op.deprecated)
    .map((op) => {
      const clientPrefix = `${op.id}\nc\n`
      const clients: (Counter & { key: string })[] = []
      for (const [field, text] of Object.entries(fields)) {
        if (field.startsWith(clientPrefix)) clients.push({ key: field.slice(clientPrefix.length), ...counter(text)! })
      }
      clients.sort((a, b) => b.calls - a.calls || a.order - b.order)
      const total = counter(fields[`${op.id}\nt`])
      const other = counter(fields[`${op.id}\no`])
      return {
        operation: op.id,
        sunset: op.sunset?.toISOString() ?? null,
        replacement: op.replacement ?? null,
        calls: total?.calls ?? 0,
        firstSeen: iso(total?.firstSeen),
        lastSeen: iso(total?.lastSeen),
        clients: clients.map((c): ClientUsage => {
          const [authorization, userAgent] = JSON.parse(c.key) as [string | null, string | null]
          return {
            authorization,
            userAgent,
            calls: c.calls,
            firstSeen: iso(c.firstSeen)!,
            lastSeen: iso(c.lastSeen)!,
          }
        }),
        other: { calls: other?.calls ?? 0, lastSeen: iso(other?.lastSeen) },
      }
    })
