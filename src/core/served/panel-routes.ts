import type { Context, Handler } from 'hono'
import { Hono } from '../http/hono-app.js'

/** What the panel page is told about the server it controls. */
export interface PanelDeps {
  operations: readonly string[]
  version: string
}

/** The panel's script, styles and icon: files, which load nothing and are never framed. */
export const panelContentSecurityPolicy =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * The panel's page: its own script and styles only, by a nonce made for each load (any other answer
 * of the origin, a fault rule's `text/javascript` included, is refused as a script), images and API
 * calls of the mock itself, never framed. Not `'self'` for scripts: any path of the origin is 'self'.
 */
export const panelPagePolicy = (nonce: string): string =>
  `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self'; ` +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const securityHeaders = {
  'Content-Security-Policy': panelContentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
}

// 128 random bits, base64: CSP's nonce (web crypto: any runtime).
const freshNonce = (): string => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))

/** The page with a nonce of its own: never cached (a stored copy's nonce would not be the policy's). */
const servePage = (c: Context, page: Asset): Response => {
  const nonce = freshNonce()
  return c.body(page.body.replaceAll('{{nonce}}', nonce), 200, {
    ...securityHeaders,
    'Content-Security-Policy': panelPagePolicy(nonce),
    'Content-Type': page.type,
    'Cache-Control': 'no-store',
  })
}

/** One file of the panel, its ETag and gzip made on first demand (CompressionStream: any web runtime). */
interface Asset {
  body: string
  type: string
  etag?: string
  gzip?: Promise<ArrayBuffer>
}

// FNV-1a: a cheap content hash for the ETag (core has no node:crypto and needs no more).
const fnv1a = (text: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, '0')
}

const asset = (body: string, type: string): Asset => ({ body, type })

// Hashed when first served, not when the app is built: the panel's 46 KB took about 1.5 ms of every
// server start and 3 ms of the msw host's createHandlers.
const etagOf = (asset: Asset): string => (asset.etag ??= `"${fnv1a(asset.body)}-${asset.body.length}"`)

const gzipped = (asset: Asset): Promise<ArrayBuffer> =>
  (asset.gzip ??= new Response(
    new Blob([asset.body]).stream().pipeThrough(new CompressionStream('gzip')),
  ).arrayBuffer())

// RFC 9110 §12.5.3: gzip unless it is refused with q=0.
const acceptsGzip = (header: string | undefined): boolean =>
  (header ?? '').split(',').some((part) => {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase())
    const q = params.find((p) => p.startsWith('q='))
    return (coding === 'gzip' || coding === 'x-gzip') && (q === undefined || Number(q.slice(2)) > 0)
  })

const matches = (ifNoneMatch: string | undefined, etag: string): boolean =>
  ifNoneMatch !== undefined &&
  ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim()
    return t === '*' || t.replace(/^W\//, '') === etag
  })

// Revalidated on every load (ETag), so a restarted, newer server is never hidden behind a cache.
const serve = async (c: Context, file: Asset): Promise<Response> => {
  const gzip = acceptsGzip(c.req.header('Accept-Encoding'))
  const etag = gzip ? etagOf(file).replace(/"$/, '-gz"') : etagOf(file)
  const headers: Record<string, string> = {
    ...securityHeaders,
    'Content-Type': file.type,
    'Cache-Control': 'no-cache',
    ETag: etag,
    Vary: 'Accept-Encoding',
  }
  if (matches(c.req.header('If-None-Match'), etag)) return c.body(null, 304, headers)
  if (!gzip) return c.body(file.body, 200, headers)
  return c.body(await gzipped(file), 200, { ...headers, 'Content-Encoding': 'gzip' })
}

const escapeAttribute = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** The panel's files, as served to one app. */
interface PanelFiles {
  page: Asset
  script: Asset
  styles: Asset
  icon: Asset
}

// Imported when the panel is first asked for, not with the app: its 46 KB (Preact included) are most
// of what a browser app would otherwise load at start with petstore-mock/msw (a bundler makes this a
// chunk of its own), and of what a server start would read and parse.
const panelFiles = async (deps: PanelDeps): Promise<PanelFiles> => {
  const { panelHtml, panelIcon, panelScript, panelStyles } = await import('../../generated/panel.js')
  return {
    page: asset(
      panelHtml
        .replace('{{operations}}', escapeAttribute(deps.operations.join(' ')))
        .replace('{{version}}', escapeAttribute(deps.version)),
      'text/html; charset=utf-8',
    ),
    script: asset(panelScript, 'text/javascript; charset=utf-8'),
    styles: asset(panelStyles, 'text/css; charset=utf-8'),
    icon: asset(panelIcon, 'image/svg+xml'),
  }
}

/**
 * The QA panel under /__admin/ (mounted there, slash included): its page at
 * `/__admin/`, its script, styles and icon. Served without the admin token
 * (they hold no data; every API call the page makes carries it) and mounted
 * before the admin guard. `/__admin` itself redirects here (panel-redirect.ts).
 */
export const adminPanelRoutes = (deps: PanelDeps): Hono => {
  let files: Promise<PanelFiles> | undefined
  // A failed load (a browser app's chunk that could not be fetched) is tried again by the next request.
  const filesOf = (): Promise<PanelFiles> =>
    (files ??= panelFiles(deps).catch((error: unknown) => {
      files = undefined
      throw error
    }))
  const serveFile =
    (name: keyof PanelFiles): Handler =>
    async (c) => {
      const file = (await filesOf())[name]
      return name === 'page' ? servePage(c, file) : serve(c, file)
    }
  return (
    new Hono()
      // Static paths, not an optional parameter: hono's RegExpRouter, which serves every request of the
      // app, refuses a pattern that can match an empty segment (and the slower TrieRouter takes over).
      .get('/', serveFile('page'))
      .get('/index.html', serveFile('page'))
      .get('/panel.js', serveFile('script'))
      .get('/panel.css', serveFile('styles'))
      .get('/favicon.svg', serveFile('icon'))
  )
}
