import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { parseYamlOffThread as fromSources } from '../../../src/node/yaml/off-thread.js'
import { parseYamlData } from '../../../src/node/yaml/data-parser.js'
import { type SpawnedServer, spawnServer } from '../../helpers/spawn-server.js'
import { onePet } from '../../helpers/fixtures.js'
import { bearer } from '../../helpers/auth.js'

// The worker runs compiled code: dist/node/yaml/off-thread.js (built by the global setup) starts
// dist/node/yaml/worker.js. From the TypeScript sources there is no worker beside the module.
const compiled = new URL('../../../dist/node/yaml/off-thread.js', import.meta.url).href
const { parseYamlOffThread } = (await import(compiled)) as { parseYamlOffThread: (text: string) => Promise<unknown> }

const scripts = mkdtempSync(join(tmpdir(), 'yaml-off-thread-'))
afterAll(() => rmSync(scripts, { recursive: true, force: true }))

const outcome = async (parse: (text: string) => unknown, text: string) => {
  try {
    return { value: await parse(text) }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

const documents: [string, string][] = [
  [
    'pets',
    'pets:\n  - id: 7\n    name: Rex\n    categoryId: 2\n    status: sold\n  - { id: 9, name: Bo, categoryId: 1 }\n',
  ],
  ['exact integers, an unsafe one a BigInt', 'a: 9007199254740991\nb: 9007199254740993\nc: -0\nd: 0x1F\ne: 0o17'],
  ['floats, infinities and NaN', 'a: 1.5\nb: .inf\nc: -.Inf\nd: .nan\ne: 1e400'],
  ['null, booleans, text', 'a: ~\nb: null\nc: true\nd: False\ne: "x\\ty"\nf: 2001-12-14'],
  ['aliases copied where used', 'base: &b {x: 1, y: [1, 2]}\nuse: *b\nagain: *b'],
  ['a key named __proto__', '__proto__: {polluted: true}\nok: 1'],
  ['an empty document', ''],
  ['a scalar', '42'],
  ['bad YAML', 'pets: [ {id: 1\n'],
  ['nested too deep', '['.repeat(300) + ']'.repeat(300)],
  ['an unknown tag', 'pets: !!set {a}'],
  ['a repeated key', 'a: 1\nb: 2\na: 3'],
  ['a second document', 'a: 1\n---\nb: 2'],
  [
    'aliases beyond 2 values per character',
    [
      'a: &a [x,x,x,x,x,x,x,x,x]',
      ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${`*${'abcdefgh'[i]},`.repeat(9)}]`),
    ].join('\n'),
  ],
]

describe('YAML read on a worker thread (src/node/yaml/off-thread.ts)', () => {
  it.each(documents)('%s: the same value or the same message as parseYamlData on the event loop', async (_, text) => {
    const expected = await outcome(parseYamlData, text)
    expect(await outcome(parseYamlOffThread, text)).toEqual(expected)
    expect(await outcome(fromSources, text)).toEqual(expected)
  })

  it('texts sent together are answered each with its own value, in any mix of good and bad', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? `n: [${i}` : `n: ${i}`))
    const outcomes = await Promise.all(texts.map((text) => outcome(parseYamlOffThread, text)))
    expect(outcomes).toEqual(
      texts.map((text, i) => (i % 3 === 0 ? { error: expect.stringMatching(/^unexpected end/) } : { value: { n: i } })),
    )
  })

  // A module file, not -e: a worker takes its process's flags, and --input-type is refused for a file.
  const script = (body: string) => {
    const file = join(scripts, `script-${randomUUID()}.mjs`)
    writeFileSync(file, `const { parseYamlOffThread: parse } = await import(${JSON.stringify(compiled)})\n${body}`)
    return promisify(execFile)(process.execPath, ['--max-old-space-size=64', file], { timeout: 50_000 })
  }

  it('a script awaiting a parse is kept alive until the answer, and exits when the worker is idle', async () => {
    // Exits by itself, with code 0: were the idle worker to keep it alive, execFile's 50 s timeout
    // would kill it, and the promise reject (a bound on the wait, not a stopwatch).
    const { stdout } = await script('console.log(JSON.stringify(await parse("a: [1, 2]")))')
    expect(stdout).toBe('{"a":[1,2]}\n')
  })

  it('a text the worker runs out of memory on fails alone (YamlTooLargeError); the texts queued behind it are read by a new worker', async () => {
    // 11 MiB of text; read, it holds ~107 MiB: beyond the 64 MiB heap, which the text itself fits.
    const { stdout, stderr } = await script(`
      const big = '- {a: 1, b: x, c: [1, 2, 3]}\\n'.repeat(400_000)
      const outcomes = await Promise.allSettled([parse(big), parse('ok: 1'), parse('ok: [2')])
      console.log(JSON.stringify(outcomes.map((o) => o.status === 'fulfilled' ? o.value : [o.reason.constructor.name, o.reason.message])))
      console.log(JSON.stringify(await parse('again: 3')))
    `)
    expect(stdout.split('\n'), stderr).toEqual([
      JSON.stringify([
        ['YamlTooLargeError', 'it needs more memory than the reader has'],
        { ok: 1 },
        ['Error', 'unexpected end of the stream within a flow collection at line 2, column 1'],
      ]),
      '{"again":3}',
      '',
    ])
  })
})

describe('an upload the YAML reader cannot hold, in the server process', () => {
  let server: SpawnedServer | undefined
  afterEach(async () => {
    await server?.stop()
    server = undefined
  })

  it('413 with the Error body; the server stays up and reads the next upload', async () => {
    server = await spawnServer(['--log', 'silent', '--body-limit', String(16 * 2 ** 20)], {}, 30_000, [
      process.execPath,
      '--max-old-space-size=64',
    ])
    const big = '- {a: 1, b: x, c: [1, 2, 3]}\n'.repeat(400_000)
    const put = (body: string) =>
      fetch(`${server!.url}/__admin/state`, { method: 'PUT', headers: { 'Content-Type': 'application/yaml' }, body })
    const refused = await put(`pets:\n${big.replace(/^/gm, '  ')}`)
    expect(refused.status).toBe(413)
    expect(await refused.json()).toEqual({
      code: 'payload_too_large',
      message: 'Request body is too large to read as YAML: it needs more memory than the reader has.',
      status: 413,
    })
    expect((await put('pets:\n  - { id: 1, name: a, categoryId: 1 }\n')).status).toBe(204)
    const pet = await fetch(`${server.url}/v1/pets/1`, { headers: bearer() })
    expect(await pet.json()).toEqual({ id: 1, name: 'a', categoryId: 1 })
  }, 60_000)

  it('a long JSON upload it cannot hold (issue 29: JSON of 256 KiB or more is read there too): 413, the next upload read', async () => {
    server = await spawnServer(['--log', 'silent', '--body-limit', String(16 * 2 ** 20)], {}, 30_000, [
      process.execPath,
      '--max-old-space-size=64',
    ])
    const put = (body: string) =>
      fetch(`${server!.url}/__admin/state`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body })
    const refused = await put(`{"pets":[${'{"a":1,"b":"x","c":[1,2,3]},'.repeat(400_000)}1]}`)
    expect(refused.status).toBe(413)
    expect(await refused.json()).toEqual({
      code: 'payload_too_large',
      message: 'Request body is too large to read as JSON: it needs more memory than the reader has.',
      status: 413,
    })
    expect((await put(JSON.stringify({ pets: onePet() }))).status).toBe(204)
    const pet = await fetch(`${server.url}/v1/pets/1`, { headers: bearer() })
    expect(await pet.json()).toEqual({ id: 1, name: 'a', categoryId: 1 })
  }, 60_000)
})
