import { readdirSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { takenRequest } from '../../helpers/in-flight.js'
import { type SpawnedServer, spawnServer } from '../../helpers/spawn-server.js'
import { bearer } from '../../helpers/auth.js'

// Issue 20 §1 against the built CLI: what a YAML upload or download costs the process and the
// other clients. Memory is read from /proc (peak RSS). That the other clients are served meanwhile is
// shown by the order of events (/v1 answered while the server is busy with the YAML), never by a
// stopwatch: the times and their ratios to JSON are reported by `npm run bench` (tools/bench/yaml.ts).

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

/**
 * The CPU time so far of a process's worker threads (the YAML reader's: "WorkerThread" in /proc), ns
 * (Linux schedstat). A count of the work they did, read at an event: not a stopwatch.
 */
const workerCpu = (pid: number): number => {
  let ns = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() !== 'WorkerThread') continue
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
    } catch {} // a thread that ended meanwhile
  }
  return ns
}

/**
 * How many GET /v1/pets/1, sent one after another from now on, are answered before `pending` settles
 * (bounded), `onAnswer` called at each. Each must answer 200.
 */
const answeredWhile = async (url: string, pending: Promise<unknown>, onAnswer = () => {}): Promise<number> => {
  let settled = false
  void pending.then(
    () => (settled = true),
    () => (settled = true),
  )
  let answered = 0
  for (let i = 0; i < 100_000 && !settled; i++) {
    const res = await fetch(`${url}/v1/pets/1`, { headers: bearer() })
    expect(res.status).toBe(200)
    await res.arrayBuffer()
    if (!settled) {
      answered++
      onAnswer()
    }
  }
  return answered
}

/**
 * PUT `body` to `path` (/__admin/state), sending /v1 requests from the moment the server has the whole upload
 * (it asked for the body with 100 Continue, and the body was handed over) to its answer: its status,
 * and the CPU time of the server's worker threads at each /v1 answer meanwhile.
 */
const uploadProbed = async (server: SpawnedServer, body: string, type: string, path = '/__admin/state') => {
  const upload = takenRequest(`${server.url}${path}`, { method: 'PUT', headers: { 'Content-Type': type }, body })
  await upload.sent
  const workerAt: number[] = []
  await answeredWhile(server.url, upload.responded, () => workerAt.push(workerCpu(server.child.pid!)))
  return { status: await upload.responded, workerAt }
}

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

  it('a YAML GET /__admin/snapshot of 100,000 pets does not stall /v1: answered while it is written (was: every request waited for it)', async () => {
    server = await spawnServer(['--log', 'silent', '--body-limit', '20000000'])
    // The writer (the yaml package) is loaded on the first snapshot: loaded now, with the fixtures' 12 pets.
    expect((await fetch(`${server.url}/__admin/snapshot`)).status).toBe(200)
    const pets = Array.from({ length: 100_000 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: i % 9 }))
    const put = await fetch(`${server.url}/__admin/state`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pets }),
    })
    expect(put.status).toBe(204)
    // From the moment the server has the request (100 Continue) to the head of its answer, which comes
    // once the whole text is written: /v1 requests answered meanwhile. Written in one piece, the first
    // of them would wait for all of it; written a slice (256 pets) at a time, one turn of the event
    // loop apart, they are answered between the slices.
    const download = takenRequest(`${server.url}/__admin/snapshot`)
    await download.taken
    const answered = await answeredWhile(server.url, download.responded)
    const yaml = (await download.answer).body
    expect(yaml.split('\n- id: ').length + yaml.split('\n  - id: ').length - 2).toBe(100_000)
    expect(answered).toBeGreaterThanOrEqual(10)
  }, 120_000)

  // Issue 20 §1, the rest: large valid YAML documents, read by js-yaml on a worker thread (before: the
  // yaml package's document model on the event loop, 0.5–1 KB and ~0.2 ms a node). Their times beside
  // the same data as JSON (2–3×, the tests once bounded them at 5–6×): npm run bench (tools/bench/yaml.ts).
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

  it('a valid 1 MiB YAML upload of pets is read off the event loop: /v1 answers while it is read (was: it waited for the whole parse)', async () => {
    server = await spawnServer(['--log', 'silent'])
    // The first YAML upload starts the reader's worker thread, the first JSON one loads its reader: both now.
    expect((await putYaml(server.url, '/__admin/state', petsYaml)).status).toBe(204)
    const putJson = { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: petsJson }
    expect((await fetch(`${server.url}/__admin/state`, putJson)).status).toBe(204)
    const { status, workerAt } = await uploadProbed(server, petsYaml, 'application/yaml')
    expect(status).toBe(204)
    // js-yaml reads it on the worker thread while the event loop serves /v1: between two /v1 answers,
    // the worker worked. Read on the event loop, no /v1 request would be answered while it is read, and
    // no worker would work.
    expect(workerAt.some((cpu, i) => i > 0 && cpu > workerAt[i - 1]!)).toBe(true)
    expect((await (await fetch(`${server.url}/__admin/state`)).json()).pets).toEqual(JSON.parse(petsJson).pets)
  }, 120_000)

  it('[1,1,…] of 1 MiB as YAML: read whole, then refused (a list is no state); peak RSS +192 MiB at most over three uploads (was +615 MiB)', async () => {
    server = await spawnServer(['--log', 'silent'])
    const pid = server.child.pid!
    await putYaml(server.url, '/__admin/state', 'pets: []')
    const before = peakRssMib(pid)
    for (let i = 0; i < 3; i++) {
      const res = await putYaml(server.url, '/__admin/state', ones)
      expect(res.status).toBe(400)
      expect((await res.json()).message).toBe('state: must be { "pets": [...] }.')
    }
    expect(peakRssMib(pid) - before).toBeLessThan(192)
  }, 120_000)
})

// Issue 29: a long JSON state or snapshot is parsed (lossless-json) on the same worker thread, copied
// back a piece per turn, and its pets checked 2,000 at a time: /v1 is answered throughout.
describe('a long JSON data upload in the server process (issue 29)', () => {
  const pets = Array.from({ length: 100_000 }, (_, i) => ({
    id: i + 1,
    name: `Pet number ${i + 1}`,
    categoryId: i % 9,
  }))
  const state = JSON.stringify({ pets })

  it.each([
    ['/__admin/state', state],
    ['/__admin/snapshot', JSON.stringify({ format: 1, pets })],
  ])(
    'PUT %s of 100,000 pets (6.6 MiB): /v1 answers while it is read, the worker working between them (was: it waited for the whole parse)',
    async (path, body) => {
      server = await spawnServer(['--log', 'silent', '--body-limit', '20000000'])
      // The first long JSON upload starts the reader's worker thread: now.
      expect(
        (
          await fetch(`${server.url}/__admin/state`, {
            method: 'PUT',
            headers: { 'Content-Type': 'application/json' },
            body: state,
          })
        ).status,
      ).toBe(204)
      const { status, workerAt } = await uploadProbed(server, body, 'application/json', path)
      expect(status).toBe(204)
      // Parsed on the event loop, no /v1 request would be answered while it is parsed, and no worker would work.
      expect(workerAt.some((cpu, i) => i > 0 && cpu > workerAt[i - 1]!)).toBe(true)
      const read = await fetch(`${server.url}/__admin/state`)
      expect(((await read.json()) as { pets: unknown[] }).pets).toEqual(pets)
    },
    120_000,
  )

  it.each([
    ['/__admin/state', (pets: string) => `{"pets":${pets}}`, 'state: entry 100000: id'],
    ['/__admin/snapshot', (pets: string) => `{"format":1,"pets":${pets}}`, 'pets: entry 100000: id'],
  ])(
    'PUT %s: an id of 2^53+1 after 100,000 pets is refused with 400 naming it, nothing replaced',
    async (path, wrap, field) => {
      server = await spawnServer(['--log', 'silent', '--body-limit', '20000000'])
      const before = await (await fetch(`${server.url}/__admin/state`)).text()
      const list = `[${state.slice('{"pets":['.length, -2)},{"id":9007199254740993,"name":"Big","categoryId":1}]`
      const res = await fetch(`${server.url}${path}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: wrap(list),
      })
      expect(res.status).toBe(400)
      const { code, message } = (await res.json()) as { code: string; message: string }
      expect(code).toBe('bad_request')
      expect(message).toBe(`${field} must be an integer between -9007199254740991 and 9007199254740991.`)
      expect(await (await fetch(`${server.url}/__admin/state`)).text()).toBe(before)
    },
    120_000,
  )
})
