import { type Document, isScalar, visit } from 'yaml'

/** A key that a mapping repeats: as written in messages, and where its second use starts. */
export interface DuplicateKey {
  key: string
  offset: number
}

/**
 * The first scalar key a mapping of the document repeats, or undefined: the
 * check the `yaml` package's `uniqueKeys` makes (equal scalar values), with a
 * Set per mapping, so linear instead of quadratic in the number of keys.
 */
export const duplicateKey = (document: Document.Parsed): DuplicateKey | undefined => {
  let found: DuplicateKey | undefined
  visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>()
      for (const { key } of map.items) {
        if (!isScalar(key)) continue
        if (seen.has(key.value)) {
          found = { key: JSON.stringify(String(key.value)), offset: key.range?.[0] ?? 0 }
          return visit.BREAK
        }
        seen.add(key.value)
      }
      return undefined
    },
  })
  return found
}
