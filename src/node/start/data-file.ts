import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { parseJsonExact } from '../../core/http/json.js'

import { DataFileError } from './data-file-error.js'
import { parseYamlData } from '../yaml/data-parser.js'

export { DataFileError }

/** Reads a `.json` file exactly (no rounded numbers) or any other as YAML, within the limits of parseYamlData. */
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
    return parseYamlData(text)
  } catch (error) {
    throw new DataFileError(`${path}: not valid YAML: ${(error as Error).message}`)
  }
}
