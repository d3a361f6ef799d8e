// npx vite-node tools/request-path.ts: the files and folders of src/ one request runs code in, as
// docs/internals/architecture.md draws them. V8's precise coverage counts the functions each request
// calls; the counts are reset after a warm-up, so that what is measured is one request on a started
// app (a `POST /v1/pets`, and a first `GET /sessions/team-a/v1/pets/1`: the session made by it).
import { Session } from 'node:inspector/promises'
import { fileURLToPath } from 'node:url'
import { relative } from 'node:path'
import { createApp } from '../src/core/app.js'

const src = fileURLToPath(new URL('../src/', import.meta.url))
const inspector = new Session()
inspector.connect()
await inspector.post('Profiler.enable')
await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })

const app = createApp({ apiKeys: ['test-token'] })
const auth = { Authorization: 'Bearer test-token' }
const post = () =>
  app.request('/v1/pets', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  })
const firstGet = (session: string) => app.request(`/sessions/${session}/v1/pets/1`, { headers: auth })

/** The files under src/ whose functions `request` called, in the order V8 lists them. */
const filesOf = async (request: () => Response | Promise<Response>): Promise<string[]> => {
  await inspector.post('Profiler.takePreciseCoverage') // resets the counts
  const res = await request()
  await res.arrayBuffer()
  const { result } = await inspector.post('Profiler.takePreciseCoverage')
  const files = new Set<string>()
  for (const script of result) {
    if (!script.url.startsWith('file://')) continue
    const path = fileURLToPath(script.url)
    if (!path.startsWith(src)) continue
    if (script.functions.some((fn) => fn.ranges[0]!.count > 0)) files.add(relative(src, path))
  }
  if (res.status >= 400) throw new Error(`answered ${res.status}`)
  return [...files].sort()
}

const report = (name: string, files: string[]): void => {
  const folders = new Set(files.map((file) => file.slice(0, file.lastIndexOf('/'))))
  console.log(`${name}: ${files.length} files in ${folders.size} folders`)
  for (const folder of [...folders].sort()) {
    const inFolder = files.filter((file) => file.slice(0, file.lastIndexOf('/')) === folder)
    console.log(`  ${folder}/: ${inFolder.map((file) => file.slice(folder.length + 1)).join(', ')}`)
  }
}

// Warm up: the first request of each kind loads and compiles what it needs.
for (let i = 0; i < 3; i++) await (await post()).arrayBuffer()
await (await firstGet('warm-up')).arrayBuffer()
report('POST /v1/pets', await filesOf(post))
report('first GET /sessions/team-a/v1/pets/1', await filesOf(() => firstGet('team-a')))
await inspector.post('Profiler.stopPreciseCoverage')
inspector.disconnect()
