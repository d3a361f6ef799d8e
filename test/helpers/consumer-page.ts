import { execFile, execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { chromiumArgs, chromiumPath } from './chromium.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const fixtures = join(root, 'test/browser/fixtures/consumer')

/** The two pages of the consumer site: the app (petstore-mock/msw) and the baseline (msw alone, one handler). */
export type ConsumerEntry = 'app' | 'baseline'

/** What the entry module measured while it was evaluated, before it awaits anything. */
export interface PageStart {
  /** Evaluating the modules it imports (msw, and petstore-mock in the app). */
  importMs: number
  /** The first createHandlers() call (the baseline: making its one handler). */
  createMs: number
  /** msw's setupWorker(...handlers), the next call. */
  setupWorkerMs: number
  /** What the first call did besides (test/browser/fixtures/consumer/page-start.js). */
  during: {
    /** Stack traces formatted (with frames) during the call. */
    stacksFormatted: number
    /** requestIdleCallback calls during it: work left for when the page is idle. */
    idleCallbacks: number
    /** Where msw says the (first) handler was declared, from a formatted stack; null without one. */
    callFrame: string | null
  }
}

/** A page's start, then its way to the first answer through the Service Worker (test/browser/fixtures/consumer/*.js). */
export interface FirstMoment extends PageStart {
  workerStartMs: number
  firstRequestMs: number
  /** From the call to the first answer's body, worker.start included. */
  toFirstAnswerMs: number
  status: number
  body: string
}

/** A consumer app's built site, in a temporary directory. */
export interface ConsumerSite {
  dir: string
  /** The tarball `npm pack` made, which the site was bundled from. */
  tarball: string
  remove(): void
}

/**
 * Packs the repository (`npm pack`, of the dist/ built before: the suite's global setup, or npm run
 * size), installs the tarball as an app would (its dependencies come from the repository's
 * node_modules, which an install would fetch), and bundles the consumer's entry modules with esbuild
 * as an app's bundler would: ES modules, code splitting, minified (not when profiling), msw's worker
 * script beside them. `packageDir`: another checkout (built), to compare two versions in one run.
 */
export const buildConsumerSite = async ({ minify = true, packageDir = root } = {}): Promise<ConsumerSite> => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-consumer-'))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  try {
    // --ignore-scripts: the build has just run; a prepack build would run it a second time.
    const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: packageDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const tarball = join(dir, (JSON.parse(packed) as { filename: string }[])[0]!.filename)
    const app = join(dir, 'app')
    const installed = join(app, 'node_modules/petstore-mock')
    mkdirSync(installed, { recursive: true })
    execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'])
    for (const file of ['app.js', 'baseline.js', 'page-start.js']) copyFileSync(join(fixtures, file), join(app, file))
    const site = join(dir, 'site')
    await build({
      absWorkingDir: app,
      entryPoints: ['app.js', 'baseline.js'],
      nodePaths: [join(root, 'node_modules')],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: 'chrome120',
      minify,
      outdir: site,
      logLevel: 'warning',
    })
    copyFileSync(join(root, 'node_modules/msw/lib/mockServiceWorker.js'), join(site, 'mockServiceWorker.js'))
    for (const entry of ['app', 'baseline'] as const) {
      writeFileSync(
        join(site, `${entry}.html`),
        `<!doctype html><title>loading</title><script type="module" src="/${entry}.js"></script>\n`,
      )
    }
    return { dir: site, tarball, remove }
  } catch (error) {
    remove()
    throw error
  }
}

/** Loads one entry's page in a fresh context of `browser` (no Service Worker yet) and resolves with all its measures. */
export const loadConsumerPage = async (
  browser: Browser,
  siteUrl: string,
  entry: ConsumerEntry,
): Promise<FirstMoment> => {
  const page = await browser.newPage()
  try {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${siteUrl}/${entry}.html`)
    await page.waitForFunction("document.title === 'ready'", undefined, { timeout: 15_000 }).catch((error) => {
      throw new Error(`${entry} page: ${errors.join('; ') || error.message}`)
    })
    return await page.evaluate(() => (globalThis as any).firstMoment as FirstMoment)
  } finally {
    await page.close()
  }
}

/**
 * Loads one entry's page in a Chromium of its own, new profile included (or `reusedProfile`, kept),
 * with no DevTools protocol attached (--dump-dom), and resolves with what its entry module measured
 * before awaiting anything.
 * Without playwright on purpose: a page the DevTools protocol watches (Runtime enabled) records a
 * detailed stack trace at every `new Error()`, which makes V8 parse the calling module again for its
 * source positions (V8.CollectSourcePositions in a trace), a cost apps do not pay in their users'
 * browsers and the very one the first call must avoid (src/msw/without-stack.ts).
 */
export const loadPageStart = async (
  siteUrl: string,
  entry: ConsumerEntry,
  reusedProfile?: string,
): Promise<PageStart> => {
  const profile = reusedProfile ?? mkdtempSync(join(tmpdir(), 'petstore-chromium-'))
  try {
    const dom = await new Promise<string>((resolve, reject) =>
      execFile(
        chromiumPath,
        [...chromiumArgs, '--headless', `--user-data-dir=${profile}`, '--dump-dom', `${siteUrl}/${entry}.html`],
        { timeout: 30_000, maxBuffer: 1024 * 1024 },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    )
    const measured = /data-first-moment="([^"]*)"/.exec(dom)?.[1]
    if (measured === undefined) throw new Error(`${entry} page: no measure in its DOM: ${dom.slice(0, 300)}`)
    return JSON.parse(measured.replaceAll('&quot;', '"')) as PageStart
  } finally {
    if (reusedProfile === undefined) rmSync(profile, { recursive: true, force: true })
  }
}

/** How a page start is loaded: see {@link loadPageStartAs}. */
export type VisitKind = 'fresh' | 'driven' | 'repeat'

/**
 * One page start of `entry`, loaded as a kind of visit, each in a Chromium of its own with a new
 * profile:
 * - `fresh`: a first visit, no DevTools protocol attached (what a user's browser does): {@link loadPageStart};
 * - `driven`: a first visit under a test driver: Playwright launches Chromium on the new profile
 *   (launchPersistentContext), so the DevTools protocol is attached (Runtime enabled), as it is for
 *   Playwright, Puppeteer, Cypress and an open DevTools;
 * - `repeat`: the third visit of the page in the same profile, no DevTools protocol: Chromium's code
 *   cache for the page's scripts is warm by then (V8 caches a script's code from its second load).
 */
export const loadPageStartAs = async (siteUrl: string, entry: ConsumerEntry, kind: VisitKind): Promise<PageStart> => {
  if (kind === 'fresh') return loadPageStart(siteUrl, entry)
  const profile = mkdtempSync(join(tmpdir(), 'petstore-chromium-'))
  try {
    if (kind === 'repeat') {
      let last: PageStart | undefined
      for (let visit = 0; visit < 3; visit++) last = await loadPageStart(siteUrl, entry, profile)
      return last!
    }
    const { chromium } = await import('playwright-core')
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      args: [...chromiumArgs],
      headless: true,
      timeout: 30_000,
    })
    try {
      const page = context.pages()[0] ?? (await context.newPage())
      await page.goto(`${siteUrl}/${entry}.html`)
      const measured = await page.waitForFunction('document.documentElement.dataset.firstMoment', undefined, {
        timeout: 15_000,
      })
      return JSON.parse((await measured.jsonValue()) as string) as PageStart
    } finally {
      await context.close()
    }
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
}

/** `runs` page starts of each entry, taken in turn (app, baseline, app, …) so that both meet the same load. */
export const measurePageStarts = async (siteUrl: string, runs: number): Promise<Record<ConsumerEntry, PageStart[]>> => {
  const samples: Record<ConsumerEntry, PageStart[]> = { app: [], baseline: [] }
  for (let i = 0; i < runs; i++) {
    for (const entry of ['app', 'baseline'] as const) samples[entry].push(await loadPageStart(siteUrl, entry))
  }
  return samples
}

/** The median of some numbers (the upper one of an even count). */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
