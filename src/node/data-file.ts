import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { parseJsonExact } from '../core/json.js'

/** A data file that cannot be used; the message names the file. */
export class DataFileError extends Error {
  override name = 'DataFileError'
}

// YAML integers come as BigInt so that an unsafe one is refused, not rounded.
const safeIntegers = (value: unknown): unknown => {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value
  if (Array.isArray(value)) return value.map(safeIntegers)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, safeIntegers(v)]))
  }
  return value
}

/** Reads a `.json` file exactly (no rounded numbers) or any other as YAML. */
export const readDataFile = (path: string): unknown => {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new DataFileError(`${path}: cannot read: ${(error as Error).message}`)
  }
  if (extname(path).toLowerCase() === '.json') {
    const parsed = parseJsonExact(text)
    if (!parsed.ok) throw new DataFileError(`${path}: ${parsed.message.replace('Request body', 'file')}`)
    return parsed.value
  }
  try {
    return safeIntegers(parseYaml(text, { intAsBigInt: true }))
  } catch (error) {
    throw new DataFileError(`${path}: not valid YAML: ${(error as Error).message}`)
  }
}
