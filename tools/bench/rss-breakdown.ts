// Where a bench server's resident memory is (heap-probe.mjs, preloaded into it): for the figure
// "RSS after 200,000 POSTs", so that a miss says what it is made of. docs/reference/robustness.md
// reads these figures.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeFlags, type ServerProcess, startServer } from './server-process.js'

const probePath = fileURLToPath(new URL('./heap-probe.mjs', import.meta.url))

interface Space {
  committed: number
  used: number
}

/** What heap-probe.mjs writes, bytes. */
export interface HeapFigures {
  rss: { total: number; anon: number; file: number }
  /** V8's heap when asked: committed and used (live and garbage not yet collected). */
  heap: Space & { spaces: Record<string, Space> }
  /** The same after two full collections: what is live. */
  live: Space & { spaces: Record<string, Space> }
  malloced: { now: number; peak: number }
  external: number
}

/** What a probed server runs: the image's command line by default, or `script` with `flags` (`node dist/bin.js`: none). */
export interface ProbedCommand {
  script?: string
  flags?: string[]
}

/** A server on the image's command line (or `command`), with heap-probe.mjs preloaded; `figures()` asks it. */
export const startProbedServer = async (
  args: string[],
  command: ProbedCommand = {},
): Promise<{ server: ServerProcess; figures(): Promise<HeapFigures> }> => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-heap-'))
  const out = join(dir, 'figures.json')
  process.env['BENCH_HEAP_PROBE_OUT'] = out
  const { script, flags = nodeFlags } = command
  const server = await startServer(args, 30_000, {
    ...(script !== undefined && { script }),
    flags: [...flags, '--expose-gc', `--import=${probePath}`],
  })
  const stop = server.stop
  server.stop = () => stop().finally(() => rmSync(dir, { recursive: true, force: true }))
  const figures = async (): Promise<HeapFigures> => {
    rmSync(out, { force: true })
    process.kill(server.child.pid!, 'SIGUSR2')
    for (let waited = 0; !existsSync(out); waited += 50) {
      if (waited > 30_000) throw new Error('heap-probe.mjs: no figures in 30 s')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    // Written in one call: parsed once complete.
    for (;;) {
      try {
        return JSON.parse(readFileSync(out, 'utf8')) as HeapFigures
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
  }
  return { server, figures }
}

const MiB = 2 ** 20
const m = (bytes: number) => (bytes / MiB).toFixed(1)

/** The breakdown as report lines: figure and value. */
export const breakdownRows = (f: HeapFigures): [string, string][] => {
  const old = f.live.spaces['old_space']
  const large = f.live.spaces['large_object_space']
  return [
    ['… file-backed (node itself: its binary and libraries, as paged in)', `${m(f.rss.file)} MiB`],
    ['… anonymous', `${m(f.rss.anon)} MiB`],
    ['…… V8 heap, committed', `${m(f.heap.committed)} MiB (${m(f.heap.used)} MiB in use, live or garbage)`],
    [
      '…… live after two full collections',
      `${m(f.live.used)} MiB (old space ${m(old?.used ?? 0)}, large objects ${m(large?.used ?? 0)})`,
    ],
    [
      '…… outside the V8 heap (malloc, freed V8 pages not yet returned, stacks)',
      `${m(f.rss.anon - f.heap.committed)} MiB (V8's malloc peak ${m(f.malloced.peak)} MiB)`,
    ],
  ]
}
