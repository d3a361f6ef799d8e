import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const entries = ['src/client/index.ts', 'src/types/index.ts']

describe('petstore-mock/client and petstore-mock/types outside Node', () => {
  it('type-check with the DOM library and no Node types', () => {
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
        files: entries.map((entry) => join(root, entry)),
      }
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config))
      execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { stdio: 'pipe' })
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
    expect(inputs.filter((input) => !/^src\/(client|types)\//.test(input))).toEqual([])
    for (const file of result.outputFiles) expect(file.text).not.toMatch(/\bnode:|\bprocess\.|\bBuffer\b|require\(/)
  })
})
