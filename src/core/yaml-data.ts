/** How YAML data is parsed: integers as BigInt, so that an unsafe one is refused (see {@link safeIntegers}), not rounded. */
export const yamlParseOptions = { intAsBigInt: true } as const

/** YAML integers come as BigInt: the safe ones become numbers, an unsafe one stays a BigInt for validation to refuse. */
export const safeIntegers = (value: unknown): unknown => {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value
  if (Array.isArray(value)) return value.map(safeIntegers)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, safeIntegers(v)]))
  }
  return value
}

// yaml is a large module that a default start never needs: it is loaded on first use.
const yaml = () => import('yaml')

/** Parses YAML data (exact integers); throws yaml's error, which names the line. */
export const parseYamlData = async (text: string): Promise<unknown> =>
  safeIntegers((await yaml()).parse(text, yamlParseOptions))

/** YAML text for plain data. */
export const toYaml = async (data: unknown): Promise<string> => (await yaml()).stringify(data)
