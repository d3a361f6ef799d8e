import { setImmediate as nextTurn } from 'node:timers/promises'
import { stringify } from 'yaml'

/** How many items of a long list are written between two turns of the event loop. */
export const yamlSliceItems = 256

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * `stringify(data)` of the `yaml` package, the same text, written a slice at
 * a time with a turn of the event loop between slices, so that other
 * clients are served while a large snapshot (100,000 pets) is written. Each
 * top-level entry is written on its own, and a long list {@link yamlSliceItems}
 * items at a time under its key, so that lines fold at the same width as in
 * one piece. Objects must not be shared between entries (no anchors).
 */
export const stringifyInSlices = async (data: unknown): Promise<string> => {
  if (!isRecord(data) || Object.keys(data).length === 0) return stringify(data)
  const parts: string[] = []
  for (const [key, value] of Object.entries(data)) {
    if (!Array.isArray(value) || value.length <= yamlSliceItems) {
      parts.push(stringify({ [key]: value }))
      continue
    }
    for (let start = 0; start < value.length; start += yamlSliceItems) {
      const text = stringify({ [key]: value.slice(start, start + yamlSliceItems) })
      // Every slice but the first drops its `key:` line: the items continue the list.
      parts.push(start === 0 ? text : text.slice(text.indexOf('\n') + 1))
      await nextTurn()
    }
  }
  return parts.join('')
}
