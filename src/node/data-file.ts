import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { parseJsonExact } from '../core/http/json.js'
import { safeIntegers, yamlParseOptions } from '../core/http/yaml-data.js'

import { DataFileError } from './data-file-error.js'

export { DataFileError }

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
    return safeIntegers(parseYaml(text, yamlParseOptions))
  } catch (error) {
    throw new DataFileError(`${path}: not valid YAML: ${(error as Error).message}`)
  }
}
