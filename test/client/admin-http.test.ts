import { describe, expect, it } from 'vitest'
import { type FetchLike, sendAdmin } from '../../src/client/admin-http.js'

/** A fetch that answers nothing until its signal aborts, then rejects as the platform's does: with the reason. */
const hanging: FetchLike = (_url, init) =>
  new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)))

describe('sendAdmin', () => {
  it('passes an abort through as it is, whatever the reason, even mid-request', async () => {
    const controller = new AbortController()
    const reason = new Error('test over')
    const sent = sendAdmin(
      { baseUrl: 'http://127.0.0.1:9', fetch: hanging },
      { method: 'GET', path: '/requests', signal: controller.signal },
    )
    controller.abort(reason)
    await expect(sent).rejects.toBe(reason)
  })

  it('names the URL when the mock cannot be reached', async () => {
    const refused: FetchLike = () => Promise.reject(new TypeError('fetch failed'))
    await expect(
      sendAdmin({ baseUrl: 'http://127.0.0.1:9', fetch: refused }, { method: 'GET', path: '/health' }),
    ).rejects.toThrow('petstore-mock did not answer GET http://127.0.0.1:9/__admin/health: fetch failed')
  })
})
