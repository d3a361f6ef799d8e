import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const entries = ['src/client/index.ts', 'src/types/index.ts']

/** What tsc says of `files` with the DOM library and no Node types: exit status, errors, the files it read. */
const typeCheckOutsideNode = (files: string[]) => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-client-dom-'))
  try {
    const config = {
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2023', 'DOM'],
        types: [],
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: true,
        noEmit: true,
      },
      files,
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config))
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir, '--listFiles'], {
      encoding: 'utf8',
    })
    const lines = tsc.stdout.split('\n').filter((line) => line !== '')
    return {
      status: tsc.status,
      errors: lines.filter((line) => /error TS\d+/.test(line)),
      read: lines
        .filter((line) => !/error TS\d+/.test(line) && /\.tsx?$/.test(line))
        .map((file) => file.replaceAll('\\', '/')),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('petstore-mock/client and petstore-mock/types outside Node', () => {
  it('type-check with the DOM library and no Node types', () => {
    const checked = typeCheckOutsideNode(entries.map((entry) => join(root, entry)))
    expect(checked.errors).toEqual([])
    expect(checked.status).toBe(0)
    // What was checked: the entries and the modules they import, with the DOM's types and none of Node's.
    for (const entry of entries) expect(checked.read).toContain(join(root, entry).replaceAll('\\', '/'))
    expect(checked.read.some((file) => file.endsWith('/lib.dom.d.ts'))).toBe(true)
    expect(checked.read.filter((file) => file.includes('/@types/node/'))).toEqual([])
  })

  it('the same check fails on a module that uses Node globals', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-client-node-'))
    try {
      const file = join(dir, 'uses-node.ts')
      writeFileSync(file, "export const home = process.env['HOME']\nexport const bytes = Buffer.from('x')\n")
      const checked = typeCheckOutsideNode([file])
      expect(checked.status).not.toBe(0)
      expect(checked.errors.join('\n')).toMatch(/Cannot find name 'process'/)
      expect(checked.errors.join('\n')).toMatch(/Cannot find name 'Buffer'/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('bundle for the browser from their own files only: no node: import, no dependency', async () => {
    const result = await build({
      entryPoints: entries.map((entry) => join(root, entry)),
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      outdir: 'out',
      logLevel: 'silent',
    })
    const inputs = Object.keys(result.metafile.inputs)
    expect(inputs).toEqual(expect.arrayContaining(entries))
    expect(inputs.filter((input) => !/^src\/(client|types)\//.test(input))).toEqual([])
    for (const file of result.outputFiles) expect(file.text).not.toMatch(/\bnode:|\bprocess\.|\bBuffer\b|require\(/)
  })
})
