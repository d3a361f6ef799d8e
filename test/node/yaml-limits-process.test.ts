import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'

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

  it('a valid 1 MiB YAML upload of pets stalls /v1 for a part of its parse only (was: all of it)', async () => {
    server = await spawnServer(['--log', 'silent'])
    const lines = ['pets:']
    for (let id = 1, size = 0; size < 1_000_000; id++) {
      const pet = `  - id: ${id}\n    name: Pet number ${id}\n    categoryId: ${id % 7}\n    status: available`
      lines.push(pet)
      size += pet.length + 1
    }
    const api = async () => {
      const start = performance.now()
      await (await fetch(`${server!.url}/v1/pets/1`, { headers: { Authorization: 'Bearer t' } })).arrayBuffer()
      return performance.now() - start
    }
    await api()
    const started = performance.now()
    let done = false
    const upload = putYaml(server.url, '/__admin/state', lines.join('\n')).then((res) => {
      done = true
      return res.status
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    let worst = 0
    for (let i = 0; i < 10_000 && !done; i++) worst = Math.max(worst, await api())
    expect(await upload).toBe(204)
    // The text is read in turns; only building the document from it is done in one piece.
    expect(worst).toBeLessThan((performance.now() - started) * 0.6)
  }, 120_000)
})
