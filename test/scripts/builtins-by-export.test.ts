import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain JavaScript without types (run by scripts/bundle.mjs)
import { builtinsByExport } from '../../scripts/builtins-by-export.mjs'

const dir = mkdtempSync(join(tmpdir(), 'builtins-by-export-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// A start that imports one export of node:crypto, and code it loads on demand that imports the module
// dynamically (as pkce-challenge does, in the MCP SDK's chunk) and by default (as the SDK does).
const sources: Record<string, string> = {
  'entry.js': `import { randomUUID } from 'node:crypto'
export const main = async () => [randomUUID(), (await import('./lazy.js')).lazy()]`,
  'lazy.js': `import crypto from 'node:crypto'
export const lazy = async () => [typeof crypto.createHash, typeof (await import('node:crypto')).webcrypto]`,
}

describe('the bundle reads a built-in export by export (scripts/builtins-by-export.mjs)', async () => {
  for (const [name, text] of Object.entries(sources)) writeFileSync(join(dir, name), text)
  await build({
    entryPoints: [join(dir, 'entry.js')],
    outdir: join(dir, 'out'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    splitting: true,
    logLevel: 'silent',
    plugins: [builtinsByExport],
  })
  const out = (name: string) => readFileSync(join(dir, 'out', name), 'utf8')
  const files = readdirSync(join(dir, 'out'))

  it('the start reads the export it imports, not the lazy getters of the others (node:crypto’s webcrypto)', () => {
    const start = files.filter((f) => f === 'entry.js' || !out(f).includes('lazy'))
    const text = start.map(out).join('\n')
    expect(text).toContain('.randomUUID')
    expect(text).not.toMatch(/\.(webcrypto|subtle|getRandomValues)\b/)
  })

  it('a dynamic import of a built-in is left to Node, and every form still works', async () => {
    expect(files.some((f) => out(f).includes('import("node:crypto")'))).toBe(true)
    const { main } = (await import(join(dir, 'out', 'entry.js'))) as {
      main: () => Promise<[string, Promise<string[]>]>
    }
    const [id, lazy] = await main()
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await lazy).toEqual(['function', 'object'])
  })
})
