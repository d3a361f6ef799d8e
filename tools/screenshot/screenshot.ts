import { fileURLToPath } from 'node:url'
import { launchChromium } from '../../test/helpers/chromium.js'
import { spawnServer } from '../../test/helpers/spawn-server.js'

// npm run screenshot: a server with a few requests and rules, the panel with a request open, saved
// as docs/admin-panel.png (1280×800) for the README.
const output = fileURLToPath(new URL('../../docs/admin-panel.png', import.meta.url))
const server = await spawnServer(['--log', 'silent'])
const browser = await launchChromium()
try {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { Authorization: 'Bearer qa-demo-token', 'Content-Type': 'application/json', ...init.headers },
    })
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.goto(`${server.url}/__admin/`)
  await page.getByText('Live').waitFor({ timeout: 5000 })
  await api('/__admin/faults', {
    method: 'POST',
    body: JSON.stringify({ operation: 'createPet', status: 503, times: 5 }),
  })
  await api('/__admin/faults', {
    method: 'POST',
    body: JSON.stringify({ operation: 'getPet', petId: 7, delayMs: 150, probability: 0.5 }),
  })
  await api('/v1/pets?limit=5')
  await api('/v1/pets?status=available')
  await api('/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Rex', categoryId: 2, status: 'pending' }) })
  await api('/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Bella', categoryId: 1 }) })
  await api('/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Milo', categoryId: 3, status: 'available' }) })
  await api('/v1/pets/1')
  await api('/v1/pets/999')
  await api('/v1/pets?limit=500')
  await api('/v1/pets', { headers: { Authorization: '' } })
  await api('/v1/pets/2', { headers: { Prefer: 'code=500' } })
  await api('/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Luna', categoryId: 4, status: 'sold' }) })
  await page.getByRole('row').filter({ hasText: '/v1/pets/999' }).waitFor({ timeout: 5000 })
  await page.getByRole('row').filter({ hasText: 'rule 1' }).first().getByRole('button').click()
  await page.mouse.move(0, 400)
  // The session picker's counts are polled: wait until they show the requests just sent.
  await page
    .getByLabel('Session', { exact: true })
    .locator('option', { hasText: '11 requests' })
    .waitFor({ state: 'attached', timeout: 5000 })
  await page.screenshot({ path: output })
  console.log(`wrote ${output}`)
} finally {
  await browser.close()
  await server.stop()
}
