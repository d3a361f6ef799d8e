import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Browser, Page } from 'playwright-core'

// The Node side of the msw page (test/browser/msw.test.ts, npm run size): builds the page from its script
// (test/browser/fixtures/msw-page-script.ts, which runs in Chromium), opens it and calls into it.

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The built page of test/browser/fixtures/msw-page-script.ts, in a temporary directory. */
export interface MswPage {
  dir: string
  /** The chunk holding faker (fetched by the page only when asked). */
  fakerChunk: string
  /** The chunk holding the QA panel's files (fetched only when the panel is). */
  panelChunk: string
  remove(): void
}

/**
 * Bundles the page with esbuild as a browser app's bundler would (ES
 * modules, code splitting), with msw's mockServiceWorker.js beside it.
 */
export const buildMswPage = async (): Promise<MswPage> => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-msw-page-'))
  const result = await build({
    absWorkingDir: root,
    entryPoints: { page: 'test/browser/fixtures/msw-page-script.ts' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    minify: true,
    metafile: true,
    outdir: dir,
    logLevel: 'warning',
  })
  copyFileSync(join(root, 'node_modules/msw/lib/mockServiceWorker.js'), join(dir, 'mockServiceWorker.js'))
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><title>loading</title><script type="module" src="/page.js"></script>\n',
  )
  const chunkOf = (module: string): string => {
    const chunk = Object.entries(result.metafile.outputs).find(([, out]) =>
      Object.keys(out.inputs).some((input) => input.includes(module)),
    )?.[0]
    if (!chunk) throw new Error(`no chunk of ${module} in the page bundle`)
    return chunk.slice(chunk.lastIndexOf('/') + 1)
  }
  return {
    dir,
    fakerChunk: chunkOf('@faker-js/faker'),
    panelChunk: chunkOf('src/generated/panel.ts'),
    remove: () => rmSync(dir, { recursive: true }),
  }
}

/** What the page offers its tests, on `globalThis.petstore` (see test/browser/fixtures/msw-page-script.ts). */
export type PageCall = 'start' | 'scenario' | 'fakerPets' | 'baseline' | 'panel' | 'otherOrigin'

/** A fresh page (its own context: no Service Worker yet) of the built site, once its script has run. */
export const openMswPage = async (
  browser: Browser,
  siteUrl: string,
  beforeLoad: (page: Page) => void = () => {},
): Promise<Page> => {
  const page = await browser.newPage()
  beforeLoad(page)
  await page.goto(`${siteUrl}/index.html`)
  await page.waitForFunction("document.title === 'ready'", undefined, { timeout: 10_000 })
  return page
}

/** Runs one of the page's functions in the page and resolves with its (serialisable) result. */
export const callPage = (page: Page, name: PageCall, arg?: unknown): Promise<any> =>
  page.evaluate(([fn, value]) => (globalThis as any).petstore[fn as string](value), [name, arg] as const)
