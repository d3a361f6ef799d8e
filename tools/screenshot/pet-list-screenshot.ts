import { fileURLToPath } from 'node:url'
import { launchChromium } from '../../test/helpers/chromium.js'
import { serveDirectory } from '../../test/helpers/serve-directory.js'
import { spawnServer } from '../../test/helpers/spawn-server.js'

// npm run screenshot:pet-list: examples/pet-list/index.html against the edge data profile (seed 235, the
// first block of 20 pets: one of each edge case), 480 px wide as on a phone, the whole page, saved as
// docs/pet-list-edge.png for the frontend guide. CJK and emoji need fonts that have them (Debian:
// fonts-wqy-microhei, fonts-noto-color-emoji); without them Chromium draws empty boxes.
const output = fileURLToPath(new URL('../../docs/pet-list-edge.png', import.meta.url))
const example = fileURLToPath(new URL('../../examples/pet-list', import.meta.url))
const server = await spawnServer(['--log', 'silent', '--faker', '--count', '40', '--seed', '235', '--data', 'edge'])
const site = await serveDirectory(example)
const browser = await launchChromium()
try {
  const page = await browser.newPage({ viewport: { width: 480, height: 800 } })
  await page.goto(`${site.url}/index.html?api=${encodeURIComponent(server.url)}&limit=20`)
  await page.waitForSelector('#pets[aria-busy="false"]', { timeout: 15_000 })
  await page.screenshot({ path: output, fullPage: true })
  console.log(`wrote ${output}`)
} finally {
  await browser.close()
  await site.close()
  await server.stop()
}
