import { fileURLToPath } from 'node:url'
import { launchChromium } from '../../test/helpers/chromium.js'
import { spawnServer } from '../../test/helpers/spawn-server.js'

// npm run screenshot: a server with a few requests and rules (one answering the mobile app beyond the
// contract), the panel with that request open, saved as docs/admin-panel.png for the README and the QA
// guide: 1440 px wide and as tall as the panel is, so that every card is whole (nothing cut, no
// scrolled-away part).
const output = fileURLToPath(new URL('../../docs/admin-panel.png', import.meta.url))
const width = 1440
const server = await spawnServer(['--log', 'silent'])
const browser = await launchChromium()
try {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { Authorization: 'Bearer qa-demo-token', 'Content-Type': 'application/json', ...init.headers },
    })
  const page = await browser.newPage({ viewport: { width, height: 900 } })
  await page.goto(`${server.url}/__admin/`)
  await page.getByText('Live').waitFor({ timeout: 5000 })
  await api('/__admin/faults', {
    method: 'POST',
    body: JSON.stringify({
      operation: 'listPets',
      status: 502,
      headers: { 'Content-Type': 'text/html' },
      body: '<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>',
      breaksContract: true,
      when: { headers: { 'User-Agent': 'mobile-app/1.0' } },
    }),
  })
  await api('/__admin/faults', {
    method: 'POST',
    body: JSON.stringify({ operation: 'createPet', status: 503, times: 5 }),
  })
  await api('/__admin/faults', {
    method: 'POST',
    body: JSON.stringify({ operation: 'getPet', petId: 7, delayMs: 150, probability: 0.5 }),
  })
  await api('/__admin/rate-limit', { method: 'PUT', body: JSON.stringify({ rate: '100/m' }) })
  await api('/v1/pets?limit=5')
  await api('/v1/pets?status=available', { headers: { 'User-Agent': 'mobile-app/1.0' } })
  await api('/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Rex', categoryId: 2, status: 'pending' }) })
  await api('/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Bella', categoryId: 1 }) })
  await api('/v1/pets/1')
  await api('/v1/pets/999')
  await api('/v1/pets?limit=500')
  await api('/v1/pets', { headers: { Authorization: '' } })
  await api('/v1/pets/2', { headers: { Prefer: 'code=500' } })
  await api('/v1/pets', { headers: { 'User-Agent': 'web/2.3' } })
  await page.getByRole('row').filter({ hasText: '/v1/pets/999' }).waitFor({ timeout: 5000 })
  await page.getByRole('row').filter({ hasText: 'beyond the contract' }).first().getByRole('button').click()
  await page.mouse.move(0, 400)
  // The session picker's counts are polled: wait until they show the requests just sent.
  await page
    .getByLabel('Session', { exact: true })
    .locator('option', { hasText: '10 requests' })
    .waitFor({ state: 'attached', timeout: 5000 })
  // As tall as the side column's cards need: nothing scrolled away (the layout fills the window).
  const height = await page.evaluate(() => {
    const { document } = globalThis as unknown as {
      document: { querySelector(s: string): { scrollHeight: number; getBoundingClientRect(): { top: number } } }
    }
    const side = document.querySelector('.side')
    return Math.ceil(side.getBoundingClientRect().top + side.scrollHeight + 24)
  })
  await page.setViewportSize({ width, height: Math.max(900, Math.min(height, 2400)) })
  await page.waitForTimeout(200)
  await page.screenshot({ path: output })
  console.log(`wrote ${output} (${width}×${Math.max(900, Math.min(height, 2400))})`)
} finally {
  await browser.close()
  await server.stop()
}
