import { gzipSync } from 'node:zlib'
import { build, type Metafile } from 'esbuild'

/** The size budget of the browser bundle of petstore-mock/msw, gzip bytes. */
export const bundleBudgetBytes = 60 * 1024

/** Packages that must never reach the browser bundle: run-time compilers, parsers, the Node host. */
export const forbiddenInBundle = [/node_modules\/ajv\//, /node_modules\/yaml\//, /@hono\/node-server/, /^src\/node\//]

/** What `petstore-mock/msw` weighs in a browser app. */
export interface MswBundle {
  bytes: number
  gzipBytes: number
  /** Every module in it (node_modules/… or src/…). */
  inputs: string[]
  /** The imports left to the app's bundler: msw's, and faker's only as a dynamic import(). */
  imports: { path: string; kind: string }[]
  text: string
}

/**
 * Bundles src/msw/index.ts as a browser app's bundler would (esbuild,
 * browser platform, minified), leaving out msw (the app has it already) and
 * faker (a separate chunk, loaded only when asked).
 */
export const bundleMsw = async (): Promise<MswBundle> => {
  const result = await build({
    entryPoints: ['src/msw/index.ts'],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    external: ['msw', '@faker-js/faker'],
    logLevel: 'silent',
  })
  const file = result.outputFiles[0]!
  const output = Object.values((result.metafile as Metafile).outputs)[0]!
  return {
    bytes: file.contents.byteLength,
    gzipBytes: gzipSync(file.contents).byteLength,
    inputs: Object.keys(output.inputs),
    imports: output.imports.map(({ path, kind }) => ({ path, kind })),
    text: file.text,
  }
}
