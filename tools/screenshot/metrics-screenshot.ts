import { fileURLToPath } from 'node:url'
import { launchChromium } from '../../test/helpers/chromium.js'
import { startPrometheus } from '../../test/helpers/prometheus-server.js'
import { spawnServer } from '../../test/helpers/spawn-server.js'

// npm run screenshot:metrics: a running mock scraped by Debian's prometheus every second while a
// bounded loop sends it mixed traffic (lists, gets, creates, 404s, Prefer-forced 500s, a fault rule),
// then Prometheus' own graph page of the request rate by operation and status, saved as
// docs/metrics-prometheus.png (1280 wide) for docs/reference/metrics.md.
const output = fileURLToPath(new URL('../../docs/metrics-prometheus.png', import.meta.url))
const seconds = Number(process.env['SCREENSHOT_SECONDS'] ?? 75)
const query = 'sum by (operation, status) (rate(petstore_mock_requests_total[20s]))'

const server = await spawnServer(['--log', 'silent', '--admin-token', 'screenshot-token'], {}, 15_000)
const prometheus = await startPrometheus([{ url: server.url, token: 'screenshot-token' }])
const browser = await launchChromium()
try {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { Authorization: 'Bearer demo', 'Content-Type': 'application/json', ...init.headers },
    }).then((res) => res.arrayBuffer())
  await fetch(`${server.url}/__admin/faults`, {
    method: 'POST',
    headers: { Authorization: 'Bearer screenshot-token', 'Content-Type': 'application/json' },
    body: JSON.stringify({ operation: 'createPet', status: 503, probability: 0.3 }),
  })
  const until = Date.now() + seconds * 1000
  for (let tick = 0; Date.now() < until; tick++) {
    // Traffic that changes over time: more lists in the middle, a burst of errors near the end.
    const phase = (Date.now() - (until - seconds * 1000)) / (seconds * 1000)
    const lists = phase > 0.3 && phase < 0.7 ? 12 : 5
    const sends = [
      ...Array.from({ length: lists }, () => api('/v1/pets?limit=5')),
      api(`/v1/pets/${1 + (tick % 12)}`),
      api(`/v1/pets/${tick % 3 === 0 ? 999 : 2}`),
      api('/v1/pets', { method: 'POST', body: JSON.stringify({ name: `Pet ${tick}`, categoryId: 1 }) }),
      ...(phase > 0.75 ? [api('/v1/pets', { headers: { Prefer: 'code=500' } })] : []),
    ]
    await Promise.all(sends)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  await prometheus.scrapedAfterNow()
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  const params = new URLSearchParams({ 'g0.expr': query, 'g0.tab': '0', 'g0.range_input': `${seconds + 5}s` })
  await page.goto(`${prometheus.url}/classic/graph?${params}`)
  await page.locator('.graph_area svg, canvas, .graph svg').first().waitFor({ timeout: 15_000 })
  await page.waitForTimeout(1500)
  await page.screenshot({ path: output, fullPage: true })
  console.log(`wrote ${output}`)
} finally {
  await browser.close()
  await prometheus.dispose()
  await server.stop()
}
