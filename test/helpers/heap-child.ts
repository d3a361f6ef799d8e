import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** The built package's root (dist/), for scripts run in a child process. */
export const distUrl = new URL('../../dist/', import.meta.url).href

/**
 * Runs an ES module script in a fresh Node process (heap capped, gc exposed)
 * and returns what it printed as JSON on its last line. The script measures
 * itself: no other test's garbage in the figures.
 */
export const runHeapChild = <T>(script: string, maxOldSpaceMiB = 160): T => {
  const result = spawnSync(
    process.execPath,
    [`--max-old-space-size=${maxOldSpaceMiB}`, '--expose-gc', '--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: 60_000, cwd: fileURLToPath(new URL('../..', import.meta.url)) },
  )
  if (result.status !== 0) throw new Error(`child exited ${result.status}: ${result.stderr.slice(-2000)}`)
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as T
}

/** Script lines: `heapMiB()`, the heap in use after a full collection. */
export const heapPrelude = `
const heapMiB = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed / 2 ** 20 }
// A flat string of its own, as an HTTP parser makes a header value.
const fresh = (prefix, size) => Buffer.from(prefix + 'x'.repeat(size - prefix.length)).toString('latin1')
`
