import { parentPort } from 'node:worker_threads'
import { parseYamlData } from './data-parser.js'

/** What the YAML worker answers for one text, in the order the texts came: its value, or why it cannot be read. */
export type YamlWorkerAnswer = { value: unknown } | { error: string }

const answer = (text: string): YamlWorkerAnswer => {
  try {
    return { value: parseYamlData(text) }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

// The thread of off-thread.ts: one YAML text per message, its answer per message.
parentPort!.on('message', (text: string) => parentPort!.postMessage(answer(text)))
