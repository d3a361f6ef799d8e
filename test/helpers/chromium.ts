import { type Browser, chromium, type Page } from 'playwright-core'

/** Debian's chromium package: browsers are never downloaded. */
export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'

/** The switches every launch gets: without the networking ones Chromium tries to reach the outside and stalls. */
export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Launches headless Chromium, with extra command-line switches if given; close it in afterAll. */
export const launchChromium = (extraArgs: readonly string[] = []): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, ...extraArgs],
    headless: true,
    timeout: 30_000,
  })

/**
 * The switches a browser needs for {@link openHarness} pages to call the mock on another origin: Chromium
 * counts a page the test fulfils as public, and its local-network checks would refuse its calls to loopback.
 */
export const harnessArgs: readonly string[] = [
  '--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,LocalNetworkAccessChecks',
]

/**
 * Opens a blank page of the test's own at `origin` (page.route, nothing asked of the server there): a
 * page to run script on. The mock's own answers are sandboxed (Content-Security-Policy: sandbox, issue
 * 40 §1), so a page the mock served cannot run a test's script or fetch.
 */
export const openHarness = async (page: Page, origin: string): Promise<void> => {
  const url = `${origin}/__test-harness.html`
  await page.route(url, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>harness</title>' }),
  )
  await page.goto(url)
}
