import {
  type CallCount,
  type DeprecationClient,
  type DeprecationReport,
  operationReport,
} from '../../../core/deprecation/deprecation-log.js'
import type { SpecOperation } from '../../../core/spec/spec.js'

/** A count as the session's hash keeps it, with the order of its client's first call. */
type KeptCount = CallCount & { order: number }

const counter = (text: string | undefined): KeptCount | undefined => {
  if (text === undefined) return undefined
  const [calls, firstSeen, lastSeen, order] = text.split(',').map(Number) as number[]
  return { calls: calls!, firstSeen: firstSeen!, lastSeen: lastSeen!, order: order ?? 0 }
}

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
      const clients: (KeptCount & DeprecationClient)[] = []
      for (const [field, text] of Object.entries(fields)) {
        if (!field.startsWith(clientPrefix)) continue
        const [authorization, userAgent] = JSON.parse(field.slice(clientPrefix.length)) as [
          string | null,
          string | null,
        ]
        clients.push({ authorization, userAgent, ...counter(text)! })
      }
      clients.sort((a, b) => b.calls - a.calls || a.order - b.order)
      return operationReport(op, {
        total: counter(fields[`${op.id}\nt`]),
        clients,
        other: counter(fields[`${op.id}\no`]),
      })
    })
