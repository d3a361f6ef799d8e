import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { panelHtml, panelIcon, panelScript, panelStyles } from '../../../src/generated/panel.js'
import { contractApp } from '../../helpers/contract.js'

const csp = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
const pages = [
  ['/__admin/', 'text/html; charset=utf-8'],
  ['/__admin/index.html', 'text/html; charset=utf-8'],
] as const
const files = [
  ...pages,
  ['/__admin/panel.js', 'text/javascript; charset=utf-8'],
  ['/__admin/panel.css', 'text/css; charset=utf-8'],
  ['/__admin/favicon.svg', 'image/svg+xml'],
] as const

describe('GET /__admin/: the QA panel', () => {
  // Issue 40 §1: the page allowed any script of its origin ('self'), a fault rule's text/javascript included.
  it.each(pages)(
    '%s allows its own script and styles only, by a nonce of each load; never cached',
    async (path, type) => {
      const { request } = contractApp()
      const [first, second] = [await request(path), await request(path)]
      const nonces = []
      for (const res of [first!, second!]) {
        expect(res.status).toBe(200)
        expect(res.headers.get('Content-Type')).toBe(type)
        const policy = res.headers.get('Content-Security-Policy')!
        const nonce =
          /^default-src 'none'; script-src 'nonce-([A-Za-z0-9+/]{22}==)'; style-src 'nonce-\1'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/.exec(
            policy,
          )?.[1]
        expect(nonce, policy).toBeDefined()
        const html = await res.text()
        expect(html).toContain(`<script type="module" src="/__admin/panel.js" nonce="${nonce}"></script>`)
        expect(html).toContain(`<link rel="stylesheet" href="/__admin/panel.css" nonce="${nonce}" />`)
        expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
        expect(res.headers.get('Referrer-Policy')).toBe('no-referrer')
        expect(res.headers.get('Cache-Control')).toBe('no-store')
        expect(res.headers.get('ETag')).toBeNull()
        nonces.push(nonce)
      }
      expect(nonces[0]).not.toBe(nonces[1])
    },
  )

  it.each(files.slice(pages.length))(
    '%s is served with its type, a strict CSP, nosniff, no referrer, revalidated by ETag',
    async (path, type) => {
      const res = await contractApp().request(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('Content-Type')).toBe(type)
      expect(res.headers.get('Content-Security-Policy')).toBe(csp)
      expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
      expect(res.headers.get('Referrer-Policy')).toBe('no-referrer')
      expect(res.headers.get('Cache-Control')).toBe('no-cache')
      expect(res.headers.get('ETag')).toMatch(/^"[0-9a-f]{8}-\d+"$/)
    },
  )

  it('the page names its own files only: no inline script or style, nothing from elsewhere', async () => {
    const html = await (await contractApp().request('/__admin/')).text()
    expect(html).toMatch(/<script type="module" src="\/__admin\/panel.js" nonce="[^"]+"><\/script>/)
    expect(html).toMatch(/<link rel="stylesheet" href="\/__admin\/panel.css" nonce="[^"]+" \/>/)
    expect(html).not.toMatch(/<style|style=|<script(?![^>]*\ssrc=)[^>]*>|\son\w+=|https?:\/\//i)
    expect(html).toMatch(/data-operations="listPets createPet getPet"/)
    expect(html).toMatch(/data-version="\d+\.\d+\.\d+"/)
  })

  it('the script needs nothing the policy forbids (no eval) and reaches nothing beyond the mock', () => {
    expect(panelScript).not.toMatch(/\beval\(|new Function|https?:\/\/(?!www\.w3\.org)/)
    expect(panelStyles).not.toMatch(/@import|url\(/)
  })

  it('needs no admin token (the API calls it makes do)', async () => {
    const { request } = contractApp({ adminToken: 's3cret' })
    for (const [path] of files) expect((await request(path)).status).toBe(200)
    expect((await request('/__admin/faults')).status).toBe(401)
  })

  it('/__admin redirects to /__admin/, so the page has one address', async () => {
    const res = await contractApp().request('/__admin')
    expect(res.status).toBe(308)
    expect(res.headers.get('Location')).toBe('/__admin/')
  })

  it('is gzipped for clients that accept it, under its own ETag', async () => {
    const { request } = contractApp()
    const plain = await request('/__admin/panel.js')
    const res = await request('/__admin/panel.js', { headers: { 'Accept-Encoding': 'br, gzip;q=0.8' } })
    expect(res.headers.get('Content-Encoding')).toBe('gzip')
    expect(res.headers.get('Vary')).toBe('Accept-Encoding')
    expect(res.headers.get('ETag')).toBe(plain.headers.get('ETag')!.replace(/"$/, '-gz"'))
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(panelScript)
    const refused = await request('/__admin/panel.js', { headers: { 'Accept-Encoding': 'gzip;q=0, br' } })
    expect(refused.headers.get('Content-Encoding')).toBeNull()
    expect(await refused.text()).toBe(panelScript)
  })

  it('answers 304 with no body to a matching If-None-Match', async () => {
    const { request } = contractApp()
    const first = await request('/__admin/panel.css', { headers: { 'Accept-Encoding': 'gzip' } })
    const etag = first.headers.get('ETag')!
    const again = await request('/__admin/panel.css', { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(again.headers.get('ETag')).toBe(etag)
    expect(await again.text()).toBe('')
    // The identity representation has another tag: no 304 for it.
    expect((await request('/__admin/panel.css', { headers: { 'If-None-Match': etag } })).status).toBe(200)
  })

  it('weighs at most 60 KB gzipped in all', () => {
    const total = [panelHtml, panelScript, panelStyles, panelIcon].reduce((sum, text) => sum + gzipSync(text).length, 0)
    expect(total).toBeLessThanOrEqual(60 * 1024)
  })
})
