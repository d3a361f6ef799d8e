import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { YamlTooLargeError } from '../../core/body/yaml-data.js'
import { type JsonResult, parseJsonExact } from '../../core/http/json.js'
import { parseYamlDataInTurns } from './data-in-turns.js'
import { fromPieces, type JsonPiecesAnswer } from './json-pieces.js'
import type { DataWorkerMessage, YamlWorkerAnswer } from './worker.js'

// Beside this module once compiled: dist/node/ for the package, the bundle's chunks/ directory
// (scripts/bundle.mjs puts it there and checks it).
const workerFile = new URL('./worker.js', import.meta.url)

interface Waiting {
  message: DataWorkerMessage
  resolve: (answer: YamlWorkerAnswer | JsonPiecesAnswer) => void
  reject: (error: Error) => void
}

let worker: Worker | undefined
// The texts sent to the worker and not yet answered, oldest first: it answers in order.
const waiting: Waiting[] = []

/** The worker stopped: the text it was reading fails; the ones after it go to a new worker. */
const stopped = (which: Worker, error: Error) => {
  if (which !== worker) return
  worker = undefined
  waiting.shift()?.reject(error)
  if (waiting.length > 0) {
    const next = started()
    for (const { message } of waiting) next.postMessage(message)
  }
}

const started = (): Worker => {
  const thread = new Worker(workerFile)
  thread.on('message', (answer: YamlWorkerAnswer | JsonPiecesAnswer) => {
    const head = waiting.shift()
    // Idle, it keeps no process alive (after the listeners: adding one refs it again).
    if (waiting.length === 0) thread.unref()
    head?.resolve(answer)
  })
  thread.on('error', (error: Error & { code?: string }) =>
    stopped(
      thread,
      // The worker has the process's heap limit: a text it cannot hold costs the worker, not the server.
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new YamlTooLargeError('it needs more memory than the reader has')
        : error,
    ),
  )
  thread.on('exit', (code) => stopped(thread, new Error(`the YAML reader stopped (exit code ${code})`)))
  worker = thread
  return thread
}

let compiled: boolean | undefined

const ask = (message: DataWorkerMessage): Promise<YamlWorkerAnswer | JsonPiecesAnswer> =>
  new Promise((resolve, reject) => {
    waiting.push({ message, resolve, reject })
    const thread = worker ?? started()
    thread.postMessage(message)
    // Waiting for an answer keeps the process alive, as a pending read of a file would (a new
    // worker is referenced already; one that went idle was unreferenced).
    thread.ref()
  })

/**
 * Parses YAML data as `parseYamlData` does, on a worker thread: the event
 * loop is blocked only while the text is handed over and the value copied
 * back (a 1 MiB upload of pets: ~3 ms against ~30 ms to parse it), so other
 * clients are served meanwhile. One worker, started on first use and kept;
 * texts are read one after the other. Run from the TypeScript sources (no
 * compiled worker beside this module), it parses in turns on the event loop.
 */
export const parseYamlOffThread = async (text: string): Promise<unknown> => {
  compiled ??= existsSync(fileURLToPath(workerFile))
  if (!compiled) return parseYamlDataInTurns(text)
  const answer = (await ask(text)) as YamlWorkerAnswer
  if ('error' in answer) throw new Error(answer.error)
  return answer.value
}

/**
 * JSON texts shorter than this (characters) are parsed on the event loop, as before: at most the
 * default --body-limit's worth, ~55 ms of lossless-json on a loaded 2-vCPU machine. The worker's heap
 * is not the budget's: a second heap's slack cost the hostile battery's state loads (1.3 MB of wide
 * names) 16 MiB over its bound of peak RSS at a threshold of 256 Ki characters.
 */
export const jsonOnThreadChars = 2 ** 20

/**
 * Parses a JSON data text as `parseJsonExact` does (the same value, LosslessNumbers included, the
 * same message), a long one on the same worker thread: the event loop only puts the value back
 * together, a piece per turn (json-pieces.ts). A worker that stops for lack of memory rejects with
 * a {@link YamlTooLargeError}; one that fails otherwise leaves the text to the event loop. Run from
 * the TypeScript sources (no compiled worker), it parses on the event loop.
 */
export const parseJsonOffThread = async (text: string): Promise<JsonResult> => {
  compiled ??= existsSync(fileURLToPath(workerFile))
  if (!compiled || text.length < jsonOnThreadChars) return parseJsonExact(text)
  let answer: JsonPiecesAnswer
  try {
    answer = (await ask({ json: text })) as JsonPiecesAnswer
  } catch (error) {
    if (error instanceof YamlTooLargeError) throw error
    return parseJsonExact(text)
  }
  if ('error' in answer) return { ok: false, message: answer.error }
  return fromPieces(answer.pieces)
}
