import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { defaultFakerCount, optionLimits } from '../../src/msw/limits.js'
import { configDefaults } from '../../src/node/config/config.js'
import { optionSpecs } from '../../src/node/cli/options.js'
import { bundleBudgetBytes, bundleMsw, forbiddenInBundle } from '../../tools/bench/msw-bundle.js'

describe('the browser bundle of petstore-mock/msw', async () => {
  const bundle = await bundleMsw()

  it(`stays within ${bundleBudgetBytes / 1024} KB gzip (msw and faker excluded)`, () => {
    expect(bundle.gzipBytes).toBeLessThanOrEqual(bundleBudgetBytes)
  })

  it('holds no Node module, no Ajv compiler, no YAML parser, in any chunk', () => {
    const everyInput = [...bundle.inputs, ...bundle.lazy.flatMap((chunk) => chunk.inputs)]
    for (const pattern of forbiddenInBundle) expect(everyInput.filter((i) => pattern.test(i))).toEqual([])
    expect(bundle.inputs.some((i) => i.startsWith('src/generated/validators'))).toBe(true)
  })

  it('leaves what only some admin calls need to chunks of their own, loaded by an import() on first use', () => {
    // The QA panel's assets, the admin API's OpenAPI document, openapi.yaml's text, the Pact document, the provider states'
    // set-up, the HAR export, the snapshot's validator, and the typed client's waiting and matching.
    const lazy = [
      'src/generated/panel.ts',
      'src/generated/admin-document.ts',
      'src/generated/contract-text.ts',
      'src/core/coverage/pact-document.ts',
      'src/core/coverage/provider-states.ts',
      'src/core/journal/har.ts',
      'src/generated/snapshot-validator.ts',
      'src/client/wait-for.ts',
      'src/client/request-filter.ts',
    ]
    expect(lazy.filter((input) => bundle.inputs.includes(input))).toEqual([])
    const lazyInputs = bundle.lazy.flatMap((chunk) => chunk.inputs)
    expect(lazy.filter((input) => !lazyInputs.includes(input))).toEqual([])
    // Each is a chunk of its own, so that loading one loads no other.
    for (const input of lazy) expect(bundle.lazy.find((chunk) => chunk.inputs.includes(input))?.inputs).toEqual([input])
  })

  it("loads the typed client behind the controls' `client` on its first call (src/msw/lazy-client.ts)", () => {
    const client = ['src/client/mock-client.ts', 'src/client/admin-http.ts']
    expect(client.filter((input) => bundle.inputs.includes(input))).toEqual([])
    const chunk = bundle.lazy.find((c) => c.inputs.includes('src/client/mock-client.ts'))
    expect(chunk?.inputs).toEqual(expect.arrayContaining(client))
  })

  it("loads the control plane (the admin routes, the panel's routes, the metrics, the admin tokens' middleware) on the first /__admin request", () => {
    const admin = [
      'src/core/admin/admin-host.ts',
      'src/core/admin/admin-routes.ts',
      'src/core/served/panel-routes.ts',
      'src/core/access/admin-scope-guard.ts',
    ]
    expect(admin.filter((input) => bundle.inputs.includes(input))).toEqual([])
    const host = bundle.lazy.find((chunk) => chunk.inputs.includes('src/core/admin/admin-host.ts'))
    expect(host?.inputs).toEqual(expect.arrayContaining(admin))
  })

  it('compiles no code at run time (strict Content-Security-Policy) and requires nothing', () => {
    expect(bundle.text).not.toMatch(/new Function|\beval\(|\brequire\(/)
  })

  it('imports msw statically and faker only dynamically', () => {
    expect(bundle.imports).toEqual(
      expect.arrayContaining([
        { path: 'msw', kind: 'import-statement' },
        { path: '@faker-js/faker', kind: 'dynamic-import' },
      ]),
    )
    expect(bundle.imports.filter((i) => i.path !== 'msw')).toEqual([
      { path: '@faker-js/faker', kind: 'dynamic-import' },
    ])
  })
})

describe('the package entry', () => {
  it("is importable by its package name: import { createHandlers } from 'petstore-mock/msw'", () => {
    const script = [
      "const [{ createHandlers }, { setupServer }] = await Promise.all([import('petstore-mock/msw'), import('msw/node')])",
      "const handlers = createHandlers({ apiKeys: ['k'], origins: ['http://petstore.test'] })",
      'const server = setupServer(...handlers)',
      "server.listen({ onUnhandledFrame: 'error' })",
      "const res = await fetch('http://petstore.test/v1/pets/1', { headers: { Authorization: 'Bearer k' } })",
      'console.log(res.status, (await res.json()).name, (await handlers.journal()).length)',
      'server.close()',
    ].join('\n')
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 10_000,
    })
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe('200 Biscuit 1\n')
  })
})

describe('the limits msw copies from the server', () => {
  it('equal the ranges and defaults of the flags', () => {
    for (const { flag, min, max } of Object.values(optionLimits)) {
      expect(optionSpecs.find((spec) => spec.flag === flag)).toMatchObject({ min, max })
    }
    expect(defaultFakerCount).toBe(configDefaults.count)
  })
})
