import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { type SpawnedServer, spawnServer } from '../../helpers/spawn-server.js'

// Issue 20 §1 against the built CLI: what a YAML upload or download costs the process and the
// other clients. Memory is read from /proc (peak RSS); time only as ratios.

let server: SpawnedServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

/** The process's peak resident set so far, MiB (VmHWM). */
const peakRssMib = (pid: number): number =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

const putYaml = (url: string, path: string, body: string) =>
  fetch(`${url}${path}`, { method: 'PUT', headers: { 'Content-Type': 'application/yaml' }, body })

describe('YAML in the server process', () => {
  it('three 1 MiB nested uploads: 400s, no growth of the peak RSS beyond a small multiple of the body (was +1.7 GiB)', async () => {
    server = await spawnServer(['--log', 'silent'])
    const pid = server.child.pid!
    const deep = '['.repeat(2 ** 19) + ']'.repeat(2 ** 19)
    await putYaml(server.url, '/__admin/state', 'pets: []')
    const before = peakRssMib(pid)
    for (let i = 0; i < 3; i++) {
      const res = await putYaml(server.url, '/__admin/state', deep)
      expect(res.status).toBe(400)
      await res.arrayBuffer()
    }
    expect(peakRssMib(pid) - before).toBeLessThan(64)
  }, 60_000)

  it('no library warning reaches stderr or stdout, even for 50,000 unknown tags under --log silent', async () => {
    server = await spawnServer(['--log', 'silent'])
    const bodies = [
      `[${Array(50_000).fill('!foo 1').join(', ')}]`,
      'pets: []\nx: !!float 1\n',
      'pets: []\n? [a, b]\n: c\n',
      'pets: []\nx: [a, b,\n c]\n',
    ]
    for (const body of bodies) await (await putYaml(server.url, '/__admin/state', body)).arrayBuffer()
    const stderr = server.stderr().replace(/^petstore-mock .*\n(  .*\n)*/, '')
    expect({ stderr, stdout: server.stdout() }).toEqual({ stderr: '', stdout: '' })
  }, 60_000)

  it('a YAML GET /__admin/snapshot of 100,000 pets does not stall /v1 (was: every request waited for it)', async () => {
    server = await spawnServer(['--log', 'silent', '--body-limit', '20000000'])
    const pets = Array.from({ length: 100_000 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: i % 9 }))
    const put = await fetch(`${server.url}/__admin/state`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pets }),
    })
    expect(put.status).toBe(204)
    const api = async () => {
      const start = performance.now()
      const res = await fetch(`${server!.url}/v1/pets/1`, { headers: { Authorization: 'Bearer t' } })
      expect(res.status).toBe(200)
      await res.arrayBuffer()
      return performance.now() - start
    }
    const started = performance.now()
    let done = false
    const download = fetch(`${server.url}/__admin/snapshot`).then(async (res) => {
      const text = await res.text()
      done = true
      return text
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    let worst = 0
    for (let i = 0; i < 10_000 && !done; i++) worst = Math.max(worst, await api())
    const yaml = await download
    const duration = performance.now() - started
    expect(yaml.split('\n- id: ').length + yaml.split('\n  - id: ').length - 2).toBe(100_000)
    // A /v1 request waits for one slice of the snapshot at most, not for the whole of it.
    expect(worst).toBeLessThan(duration / 4)
  }, 120_000)

  // Issue 20 §1, the rest: a large valid YAML document costs about what the same data as JSON does
  // (js-yaml instead of the yaml package's document model, which took 0.5–1 KB and ~0.2 ms a node).
  const petsYaml = (() => {
    const lines = ['pets:']
    for (let id = 1, size = 0; size < 1_000_000; id++) {
      const pet = `  - id: ${id}\n    name: Pet number ${id}\n    categoryId: ${id % 7}\n    status: available`
      lines.push(pet)
      size += pet.length + 1
    }
    return lines.join('\n')
  })()
  const petsJson = JSON.stringify(parse(petsYaml))
  const ones = `[${'1,'.repeat(2 ** 19 - 100)}1]`

  const api = async (url: string) => {
    const start = performance.now()
    await (await fetch(`${url}/v1/pets/1`, { headers: { Authorization: 'Bearer t' } })).arrayBuffer()
    return performance.now() - start
  }

  /**
   * One upload: its status, its time, and with `probe` the longest a /v1 request sent meanwhile
   * waited (ms), else 0. Time is measured without the probe: YAML is read on a worker thread, which
   * the probing client and the server's event loop would otherwise share the 2 cores with.
   */
  const upload = async (url: string, body: string, type: string, probe: boolean) => {
    const started = performance.now()
    let done = false
    const sent = fetch(`${url}/__admin/state`, { method: 'PUT', headers: { 'Content-Type': type }, body }).then(
      async (res) => {
        await res.arrayBuffer()
        done = true
        return res.status
      },
    )
    let wait = 0
    for (let i = 0; i < 10_000 && probe && !done; i++) wait = Math.max(wait, await api(url))
    const status = await sent
    return { status, time: performance.now() - started, wait }
  }

  /**
   * The best of `rounds` uploads of each body, YAML and JSON alternating, timed alone and, with
   * `probe`, once more probed: the machine is shared (in CI with the other test files), and the best
   * round of each is the one least disturbed.
   */
  const bestOf = async (rounds: number, url: string, yaml: string, json: string, probe: boolean) => {
    const best = { yaml: { time: Infinity, wait: Infinity }, json: { time: Infinity, wait: Infinity } }
    for (let i = 0; i < rounds; i++) {
      for (const [kind, body, type] of [
        ['yaml', yaml, 'application/yaml'],
        ['json', json, 'application/json'],
      ] as const) {
        const { time } = await upload(url, body, type, false)
        const { wait } = probe ? await upload(url, body, type, true) : { wait: 0 }
        best[kind] = { time: Math.min(best[kind].time, time), wait: Math.min(best[kind].wait, wait) }
      }
    }
    return best
  }

  it('a valid 1 MiB YAML upload of pets takes at most 6× the same data as JSON (was 9×), and stalls /v1 at most 1.5× as long: it is read on a worker thread (was 2.5–4×)', async () => {
    server = await spawnServer(['--log', 'silent'])
    expect((await upload(server.url, petsYaml, 'application/yaml', false)).status).toBe(204)
    expect((await upload(server.url, petsJson, 'application/json', false)).status).toBe(204)
    const best = await bestOf(5, server.url, petsYaml, petsJson, true)
    // Here (Node 24, 2 vCPU): time 2.0–3.2×, as js-yaml parses ~12× slower than JSON.parse and the
    // worker's copies cost ~7 ms; on a machine where JSON is quicker (CI once: its stall 8.9 ms
    // against 13–18 ms here), ~4–5×. The stall is 0.2–0.6× JSON's, which lossless-json parses on
    // the event loop; the bounds leave room for a shared machine.
    expect(best.yaml.time).toBeLessThan(6 * best.json.time)
    expect(best.yaml.wait).toBeLessThan(1.5 * Math.max(best.json.wait, 1))
  }, 120_000)

  it('[1,1,…] of 1 MiB as YAML: about as fast as JSON (was 30×), peak RSS +192 MiB at most over three uploads (was +615 MiB)', async () => {
    server = await spawnServer(['--log', 'silent'])
    const pid = server.child.pid!
    await putYaml(server.url, '/__admin/state', 'pets: []')
    const before = peakRssMib(pid)
    // Read whole, then refused: a list is no state.
    expect((await upload(server.url, ones, 'application/yaml', false)).status).toBe(400)
    const best = await bestOf(3, server.url, ones, ones, false)
    expect(peakRssMib(pid) - before).toBeLessThan(192)
    expect(best.yaml.time).toBeLessThan(5 * best.json.time)
  }, 120_000)
})
