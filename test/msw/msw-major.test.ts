import { readFileSync } from 'node:fs'
import { http } from 'msw'
import { describe, expect, it, vi } from 'vitest'

// createHandlers() on an msw other than 3: msw 2's handlers stand in (its RequestHandler has no
// dispose(), which msw 3's Handler base class has from 3.0.0 on). Checked by hand with the real msw
// 2.7.0 and 2.15.0 installed beside the packed package: the same error (docs/frontend.md).
vi.mock('msw', async (original) => {
  const msw = await original<typeof import('msw')>()
  const asMsw2 = <T extends object>(handler: T): T => {
    Object.defineProperty(handler, 'dispose', { value: undefined })
    return handler
  }
  return {
    ...msw,
    http: { ...msw.http, all: (...args: Parameters<typeof msw.http.all>) => asMsw2(msw.http.all(...args)) },
  }
})

describe('createHandlers() on msw 2', () => {
  it('throws a PetstoreMockError that names msw 3, the Node.js it needs and the install', async () => {
    expect(typeof (http.all(/x/, () => undefined) as { dispose?: unknown }).dispose).not.toBe('function')
    const { createHandlers, PetstoreMockError } = await import('../../src/msw/index.js')
    const thrown = (() => {
      try {
        createHandlers({ origins: 'any' })
      } catch (error) {
        return error
      }
    })()
    expect(thrown).toBeInstanceOf(PetstoreMockError)
    expect((thrown as Error).message).toBe(
      'petstore-mock/msw: needs msw 3 (the msw installed is an earlier major, which ignores onUnhandledFrame; ' +
        'npm installs msw 2 on a Node.js older than 22.12, where msw 3 does not run): ' +
        'use Node.js 22.12 or later and npm install --save-dev msw@3',
    )
  })

  it('the peer dependency says the same major', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>
    }
    expect(manifest.peerDependencies['msw']).toBe('^3.0.0')
  })
})
