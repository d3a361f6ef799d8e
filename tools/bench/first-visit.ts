// npm run bench:first-visit: createHandlers() at page start as a first visit sees it (issue 27 §2.5).
// The consumer app of test/browser/fixtures/consumer (the package built, packed, installed, its entry
// module bundled by esbuild as an app's bundler would) times the synchronous call while its entry
// module is evaluated. Each page start runs in a Chromium of its own on a new profile, as three kinds
// of visit (test/helpers/consumer-page.ts, loadPageStartAs): `fresh` (no DevTools protocol: a user's
// browser), `driven` (Playwright attached, as for an end-to-end test or open DevTools) and `repeat`
// (the third load in one profile: V8's code cache warm). FIRST_VISIT_BEFORE=<dir>: another built
// checkout measured in the same run, the kinds and versions taken in turn so that the machine's other
// work meets them alike. Reports medians and ranges against the 30 ms budget; never fails.
import { execFileSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import build from '../../test/helpers/build.js'
import { chromiumPath } from '../../test/helpers/chromium.js'
import {
  buildConsumerSite,
  type ConsumerSite,
  loadPageStartAs,
  median,
  type VisitKind,
} from '../../test/helpers/consumer-page.js'
import { serveDirectory } from '../../test/helpers/serve-directory.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const runs = Number(process.env['FIRST_VISIT_RUNS'] ?? 11)
const kinds = (process.env['FIRST_VISIT_KINDS'] ?? 'fresh,driven,repeat').split(',') as VisitKind[]
const before = process.env['FIRST_VISIT_BEFORE']
const budgetMs = 30

build()
const versions = [
  { name: 'this checkout', dir: root },
  ...(before ? [{ name: `before (${before})`, dir: before }] : []),
]
const sites: ConsumerSite[] = []
const servers: Awaited<ReturnType<typeof serveDirectory>>[] = []
try {
  for (const version of versions) {
    const site = await buildConsumerSite({ packageDir: version.dir })
    sites.push(site)
    servers.push(await serveDirectory(site.dir))
  }
  const chromiumVersion = execFileSync(chromiumPath, ['--version'], { encoding: 'utf8' }).trim()
  console.log(
    `createHandlers() at page start, median of ${runs} page starts each (${cpus().length} × ${cpus()[0]?.model.trim()}, ` +
      `Node ${process.version}, ${chromiumVersion}, load average ${loadavg()[0]!.toFixed(1)} at the start)`,
  )
  const samples = versions.map(() =>
    Object.fromEntries(kinds.map((kind) => [kind, [] as { create: number; load: number }[]])),
  )
  for (let i = 0; i < runs; i++) {
    for (const kind of kinds) {
      for (const [v, server] of servers.entries()) {
        const start = await loadPageStartAs(server.url, 'app', kind)
        samples[v]![kind]!.push({ create: start.createMs, load: start.importMs })
      }
    }
  }
  const results = []
  for (const [v, version] of versions.entries()) {
    for (const kind of kinds) {
      const creates = samples[v]![kind]!.map((s) => s.create)
      const loads = samples[v]![kind]!.map((s) => s.load)
      const create = median(creates)
      results.push({ version: version.name, kind, createMs: creates, importMs: loads })
      console.log(
        `  ${version.name}, ${kind}: createHandlers() ${create.toFixed(1)} ms ` +
          `(${Math.min(...creates).toFixed(1)} to ${Math.max(...creates).toFixed(1)}; budget ${budgetMs} ms: ` +
          `${create <= budgetMs ? 'met' : 'MISSED'}), the page's modules before it ${median(loads).toFixed(1)} ms`,
      )
    }
  }
  console.log(`  load average ${loadavg()[0]!.toFixed(1)} at the end`)
  console.log(JSON.stringify({ runs, chromium: chromiumVersion, node: process.version, results }))
} finally {
  await Promise.all(servers.map((server) => server.close()))
  for (const site of sites) site.remove()
}
