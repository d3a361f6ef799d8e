import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { YamlTooLargeError } from '../../core/body/yaml-data.js'
import { parseYamlDataInTurns } from './data-in-turns.js'
import type { YamlWorkerAnswer } from './worker.js'

// Beside this module once compiled: dist/node/ for the package, the bundle's chunks/ directory
// (scripts/bundle.mjs puts it there and checks it).
const workerFile = new URL('./worker.js', import.meta.url)

interface Waiting {
  text: string
  resolve: (value: unknown) => void
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
    for (const { text } of waiting) next.postMessage(text)
  }
}

const started = (): Worker => {
  const thread = new Worker(workerFile)
  thread.on('message', (answer: YamlWorkerAnswer) => {
    const head = waiting.shift()
    // Idle, it keeps no process alive (after the listeners: adding one refs it again).
    if (waiting.length === 0) thread.unref()
    if ('error' in answer) head?.reject(new Error(answer.error))
    else head?.resolve(answer.value)
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

/**
 * Parses YAML data as `parseYamlData` does, on a worker thread: the event
 * loop is blocked only while the text is handed over and the value copied
 * back (a 1 MiB upload of pets: ~3 ms against ~30 ms to parse it), so other
 * clients are served meanwhile. One worker, started on first use and kept;
 * texts are read one after the other. Run from the TypeScript sources (no
 * compiled worker beside this module), it parses in turns on the event loop.
 */
export const parseYamlOffThread = (text: string): Promise<unknown> => {
  compiled ??= existsSync(fileURLToPath(workerFile))
  if (!compiled) return parseYamlDataInTurns(text)
  return new Promise((resolve, reject) => {
    waiting.push({ text, resolve, reject })
    const thread = worker ?? started()
    thread.postMessage(text)
    // Waiting for an answer keeps the process alive, as a pending read of a file would (a new
    // worker is referenced already; one that went idle was unreferenced).
    thread.ref()
  })
}
