import { parentPort } from 'node:worker_threads'
import { parseYamlData } from './data-parser.js'
import { toPieces } from './json-pieces.js'

/** What the YAML worker answers for one text, in the order the texts came: its value, or why it cannot be read. */
export type YamlWorkerAnswer = { value: unknown } | { error: string }

/** What the worker is sent: a YAML text, or a JSON one (answered in pieces: json-pieces.ts). */
export type DataWorkerMessage = string | { json: string }

const answer = (text: string): YamlWorkerAnswer => {
  try {
    return { value: parseYamlData(text) }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

// The thread of off-thread.ts: one text per message, its answer per message.
parentPort!.on('message', (message: DataWorkerMessage) => {
  if (typeof message === 'string') return parentPort!.postMessage(answer(message))
  const read = toPieces(message.json)
  parentPort!.postMessage(read, 'pieces' in read ? read.pieces : [])
})
