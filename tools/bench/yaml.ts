// YAML in `npm run bench` (issue 20 §1): the times and stalls that test/node/yaml asserted as ratios
// until a busy machine failed them (issue 27 §3). The tests now show by the order of events that /v1
// is served while YAML is read or written; here the times, beside the same data as JSON in the same
// run, against the bounds those tests had. The package bin (dist/bin.js), one server for all. Reports;
// never fails.
import { parse } from 'yaml'
import { binPath, startServer } from './server-process.js'

type Row = (section: string, figure: string, value: string, ratio?: string, budget?: string, pass?: boolean) => void

/** The bounds the tests had, as ratios (YAML to JSON, or to the other measure named). */
export const yamlBudget = { upload: 6, stall: 1.5, ones: 5, snapshotStall: 0.25, keys: 9, keysToJson: 40, refused: 3 }

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
const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join('\n')
const jsonKeys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}": ${i}`).join(',')}}`
const deep = '['.repeat(2 ** 19) + ']'.repeat(2 ** 19)
const tags = `[${Array(50_000).fill('!foo 1').join(', ')}]`
const strings = `[${Array(50_000).fill('"1"').join(', ')}]`

const ms = (value: number) => `${value.toFixed(1)} ms`
const times = (value: number) => `${value.toFixed(2)}×`

/** The longest a GET /v1/pets/1 waited, sent one after another until `pending` settles (0 if none was). */
const worstWait = async (url: string, pending: Promise<unknown>): Promise<number> => {
  let settled = false
  void pending.then(
    () => (settled = true),
    () => (settled = true),
  )
  let worst = 0
  for (let i = 0; i < 100_000 && !settled; i++) {
    const start = performance.now()
    await (await fetch(`${url}/v1/pets/1`, { headers: { Authorization: 'Bearer bench' } })).arrayBuffer()
    worst = Math.max(worst, performance.now() - start)
  }
  return worst
}

/** One PUT /__admin/state: its time (alone), or with `probe` the longest /v1 wait meanwhile. */
const upload = async (url: string, body: string, type: string, probe = false) => {
  const started = performance.now()
  const sent = fetch(`${url}/__admin/state`, { method: 'PUT', headers: { 'Content-Type': type }, body }).then(
    async (res) => {
      await res.arrayBuffer()
      return res.status
    },
  )
  const wait = probe ? await worstWait(url, sent) : 0
  await sent
  return { time: performance.now() - started, wait }
}

/** The best of `rounds` of each body, YAML and JSON in turn: the round least disturbed by the machine. */
const bestOf = async (rounds: number, url: string, yaml: string, json: string, probe = false) => {
  const best = { yaml: { time: Infinity, wait: Infinity }, json: { time: Infinity, wait: Infinity } }
  for (let i = 0; i < rounds; i++) {
    for (const [kind, body, type] of [
      ['yaml', yaml, 'application/yaml'],
      ['json', json, 'application/json'],
    ] as const) {
      const { time } = await upload(url, body, type)
      const { wait } = probe ? await upload(url, body, type, true) : { wait: 0 }
      best[kind] = { time: Math.min(best[kind].time, time), wait: Math.min(best[kind].wait, wait) }
    }
  }
  return best
}

const compared = (row: Row, figure: string, yaml: number, json: number, budget: number, what = 'JSON') =>
  row(
    'yaml',
    figure,
    `${ms(yaml)}, ${what} ${ms(json)}`,
    `${times(yaml / json)} ${what}`,
    `< ${budget}×`,
    yaml < budget * json,
  )

export const yamlFigures = async (row: Row, rounds: number): Promise<Record<string, unknown>> => {
  const server = await startServer(['--log', 'silent', '--body-limit', '20000000'], 30_000, {
    script: binPath,
    flags: [],
  })
  const results: Record<string, unknown> = {}
  try {
    const url = server.url
    // The reader's worker thread and the JSON reader are loaded by the first uploads.
    await upload(url, petsYaml, 'application/yaml')
    await upload(url, petsJson, 'application/json')
    const pets = await bestOf(Math.max(rounds, 5), url, petsYaml, petsJson, true)
    results['petsUpload'] = pets
    compared(row, '1 MiB of pets, PUT /__admin/state (best round)', pets.yaml.time, pets.json.time, yamlBudget.upload)
    row(
      'yaml',
      '  its longest /v1 wait meanwhile (YAML: a worker thread; JSON: the event loop)',
      `${ms(pets.yaml.wait)}, JSON ${ms(pets.json.wait)}`,
      `${times(pets.yaml.wait / Math.max(pets.json.wait, 1))} JSON`,
      `< ${yamlBudget.stall}×`,
      pets.yaml.wait < yamlBudget.stall * Math.max(pets.json.wait, 1),
    )
    const list = await bestOf(Math.max(rounds, 3), url, ones, ones)
    results['onesUpload'] = list
    compared(row, '[1,1,…] of 1 MiB (refused: no state; best round)', list.yaml.time, list.json.time, yamlBudget.ones)

    // The fastest of a few uploads of one body (after one to warm it up), the one least disturbed.
    const fastest = async (body: string, type: string) => {
      await upload(url, body, type)
      let least = Infinity
      for (let i = 0; i < Math.max(rounds, 2); i++) least = Math.min(least, (await upload(url, body, type)).time)
      return least
    }
    const small = await fastest(keys(10_000), 'application/yaml')
    const large = await fastest(keys(40_000), 'application/yaml')
    const largeJson = await fastest(jsonKeys(40_000), 'application/json')
    results['keys'] = { small, large, largeJson }
    compared(row, '40,000 keys, beside 10,000 (quadratic: 16×)', large, small, yamlBudget.keys, '10,000')
    compared(row, '40,000 keys', large, largeJson, yamlBudget.keysToJson)
    const refused = {
      deep: await fastest(deep, 'application/yaml'),
      deepJson: await fastest(deep, 'application/json'),
      tags: await fastest(tags, 'application/yaml'),
      strings: await fastest(strings, 'application/json'),
    }
    results['refused'] = refused
    compared(row, '1 MiB nested, refused at depth 257', refused.deep, refused.deepJson, yamlBudget.refused)
    compared(
      row,
      '50,000 unknown tags, refused (JSON: 50,000 strings)',
      refused.tags,
      refused.strings,
      yamlBudget.refused,
    )

    // A snapshot of 100,000 pets as YAML, written a slice at a time: its time, and the longest /v1 wait meanwhile.
    await (await fetch(`${url}/__admin/snapshot`)).arrayBuffer()
    const many = Array.from({ length: 100_000 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: i % 9 }))
    await upload(url, JSON.stringify({ pets: many }), 'application/json')
    const started = performance.now()
    const download = fetch(`${url}/__admin/snapshot`).then((res) => res.text())
    const wait = await worstWait(url, download)
    await download
    const duration = performance.now() - started
    results['snapshot'] = { duration, wait }
    row(
      'yaml',
      'GET /__admin/snapshot of 100,000 pets: its longest /v1 wait, beside its time',
      `${ms(wait)}, the snapshot ${ms(duration)}`,
      `${times(wait / duration)} its time`,
      `< ${yamlBudget.snapshotStall}×`,
      wait < yamlBudget.snapshotStall * duration,
    )
  } finally {
    await server.stop()
  }
  return results
}
