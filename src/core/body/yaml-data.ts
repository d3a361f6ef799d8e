/** YAML integers come as BigInt: the safe ones become numbers, an unsafe one stays a BigInt for validation to refuse. */
export const safeIntegers = (value: unknown): unknown => {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value
  if (Array.isArray(value)) return value.map(safeIntegers)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, safeIntegers(v)]))
  }
  return value
}

/** A YAML text (or a JSON one, on the Node host's worker) that the host could not read within the memory it gives the reader (a 413, not a 400). */
export class YamlTooLargeError extends Error {}

/**
 * YAML for snapshots, provided by the host like its transport: the Node host
 * has one (src/node/yaml/codec.ts); without one (msw in a browser, whose
 * bundle carries no YAML parser) snapshots are JSON only.
 */
export interface YamlCodec {
  /** Parses YAML data with exact integers; rejects with an error naming the line, or a {@link YamlTooLargeError}. */
  parse(text: string): Promise<unknown>
  stringify(data: unknown): Promise<string>
}
