// Preloaded into a bench server (node --expose-gc --import=…/heap-probe.mjs): on SIGUSR2 it writes
// where its memory is to the file BENCH_HEAP_PROBE_OUT names, as JSON, bytes: the resident set as
// the kernel splits it (/proc/self/status, read first, as the bench's RSS figure is), V8's heap as
// it stands (committed and used, by space), then the same after two full collections (what is live),
// and the memory V8 allocated with malloc (its peak: compiler zones). Nothing else changes: the
// server runs its own command line, with `gc` exposed for the signal's sake.
import { readFileSync, writeFileSync } from 'node:fs'
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8'

const kib = (status, field) => Number(new RegExp(`^${field}:\\s+([0-9]+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024
const spaces = () =>
  Object.fromEntries(
    getHeapSpaceStatistics()
      .filter((s) => s.space_size > 0)
      .map((s) => [s.space_name, { committed: s.space_size, used: s.space_used_size }]),
  )

process.on('SIGUSR2', () => {
  const status = readFileSync('/proc/self/status', 'utf8')
  const rss = { total: kib(status, 'VmRSS'), anon: kib(status, 'RssAnon'), file: kib(status, 'RssFile') }
  const heap = getHeapStatistics()
  const before = { committed: heap.total_heap_size, used: heap.used_heap_size, spaces: spaces() }
  globalThis.gc()
  globalThis.gc()
  const after = getHeapStatistics()
  const figures = {
    rss,
    heap: before,
    live: { committed: after.total_heap_size, used: after.used_heap_size, spaces: spaces() },
    malloced: { now: after.malloced_memory, peak: after.peak_malloced_memory },
    external: process.memoryUsage().external,
  }
  writeFileSync(process.env.BENCH_HEAP_PROBE_OUT, JSON.stringify(figures))
})
