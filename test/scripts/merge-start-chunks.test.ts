import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Metafile } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import { spawnServer } from '../helpers/spawn-server.js'
// @ts-expect-error: plain JavaScript without types (run by scripts/bundle.mjs)
import { mergeStartChunks } from '../../scripts/merge-start-chunks.mjs'

const dir = mkdtempSync(join(tmpdir(), 'merge-start-chunks-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// A start (entry) that shares a module with state with code it loads on demand (lazy), and a module
// with a Worker's entry (worker), as src/node/main.ts does with the Redis store and the YAML worker.
const sources: Record<string, string> = {
  'entry.js': `import { counter, bump } from './shared.js'
import { tool } from './tool.js'
export const main = async () => {
  bump()
  const before = counter
  const lazy = await import('./lazy.js')
  return [before, lazy.seen(), counter, tool()]
}`,
  'shared.js': 'export let counter = 0\nexport const bump = () => { counter++ }',
  'lazy.js': `import { counter, bump } from './shared.js'
export const seen = () => (bump(), counter)`,
  'tool.js': 'export const tool = () => "tool"',
  'worker.js': 'import { tool } from "./tool.js"\nexport const work = () => tool()',
}

const staticImports = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:^|;)\s*(?:import|export)\s*(?:[^'"();]*?from\s*)?"\.\/([^"]+)"/g)].map(
    (m) => m[1],
  )

describe('mergeStartChunks', async () => {
  for (const [name, text] of Object.entries(sources)) writeFileSync(join(dir, name), text)
  const entry = (name: string) => relative(process.cwd(), join(dir, name))
  const { metafile } = (await build({
    entryPoints: [join(dir, 'entry.js'), join(dir, 'worker.js')],
    outdir: join(dir, 'out'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    splitting: true,
    metafile: true,
    logLevel: 'silent',
  })) as { metafile: Metafile }
  const mainOf = () => Object.keys(metafile.outputs).find((p) => metafile.outputs[p]!.entryPoint === entry('entry.js'))!
  const before = staticImports(mainOf())
  const folded: string[] = await mergeStartChunks(metafile, entry('entry.js'), [entry('worker.js')])

  it("esbuild gave the start's shared modules chunks of their own: the start loaded two more modules", () => {
    expect(before).toHaveLength(2)
  })

  it("folds the chunk shared with code loaded on demand into the entry's chunk; the Worker's stays apart", () => {
    expect(folded).toHaveLength(1)
    const kept = before.filter((chunk) => !folded.map((f) => basename(f)).includes(chunk!))
    expect(staticImports(mainOf())).toEqual(kept)
    // The folded chunk's file re-exports from the entry's chunk, for the code loaded on demand.
    expect(staticImports(folded[0]!)).toEqual([basename(mainOf())])
  })

  it('runs the same: one instance of the shared module, its bindings live in the code loaded on demand', async () => {
    const { main } = await import(pathToFileURL(mainOf()).href)
    expect(await main()).toEqual([1, 2, 2, 'tool'])
    const worker = Object.keys(metafile.outputs).find((p) => metafile.outputs[p]!.entryPoint === entry('worker.js'))!
    expect((await import(pathToFileURL(worker).href)).work()).toBe('tool')
  })
})

// The files of dist/ a start of the built bin reads, as module.registerHooks sees them load.
const startFiles = async (): Promise<string[]> => {
  const hook = `data:text/javascript,${encodeURIComponent(`import { registerHooks } from 'node:module'
registerHooks({ load(url, context, next) { if (url.includes('/dist/')) process.stderr.write('start-file: ' + url.replace(/.*\\/dist\\//, '') + '\\n'); return next(url, context) } })`)}`
  const server = await spawnServer(['--log', 'silent'], {}, 30_000, [process.execPath, `--import=${hook}`])
  try {
    expect((await fetch(`${server.url}/v1/pets`, { headers: { authorization: 'Bearer t' } })).status).toBe(200)
    return [...server.stderr().matchAll(/^start-file: (.+)$/gm)].map((m) => m[1]!)
  } finally {
    await server.stop()
  }
}

describe('the built bin (dist/bin.js)', () => {
  it('a start to its first answer reads bin.js and its main chunk: 2 files, not 17', async () => {
    expect(await startFiles()).toEqual(['bin.js', expect.stringMatching(/^chunks\/main-\w+\.js$/)])
  })
})
