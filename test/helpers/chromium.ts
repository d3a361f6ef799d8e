import { type Browser, chromium } from 'playwright-core'

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
