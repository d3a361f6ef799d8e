// Two containers of the image on one Redis, checked phase by phase (redis-replicas.sh runs the
// containers and redis-server between the phases):
//   node test/container/redis-replicas.mjs <phase> <state-file> <url-a> <url-b>
// shared:    health 200 on both; a pet created on A is read and listed on B; a `times: 1` rule set
//            on A fires once on B and never again (the pet is kept in <state-file> for the next phases)
// restarted: A was killed and started again: the pet is there, on A and on B
// down:      redis-server stopped: health and /v1 answer 503 store_unavailable on B, a create is refused
// resumed:   redis-server started again (same directory): answers resume on both, the pet is still
//            there and the create refused while it was down is not
import { readFileSync, writeFileSync } from 'node:fs'
import { isDeepStrictEqual as same } from 'node:util'
import { check, client, finish } from './checks.mjs'

const [phase, stateFile, urlA, urlB] = process.argv.slice(2)
const replicas = { A: client(urlA), B: client(urlB) }
const { A: a, B: b } = replicas
const key = { Authorization: 'Bearer redis-key' }
const json = { 'Content-Type': 'application/json' }
// Answers shown with their headers (a Headers object serializes as {}).
const show = (...values) => JSON.stringify(values, (_, v) => (v instanceof Headers ? Object.fromEntries(v) : v))
const unavailable = {
  code: 'store_unavailable',
  message: 'The state store (Redis) cannot be reached; retry later.',
  status: 503,
}

/**
 * Asks `request` until `wanted` says yes of the answer, at most `tries` times 100 ms apart; the last
 * answer (or error). A bound against a hang, generous for a busy machine: not a measure of time.
 */
const until = async (request, wanted, tries) => {
  let last
  for (let i = 0; i < tries; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100))
    try {
      last = await request()
    } catch (error) {
      last = { status: 0, body: String(error) }
    }
    if (wanted(last)) break
  }
  return last
}

const readPet = (call, id) => call(`/v1/pets/${id}`, { headers: key })
const listPets = (call) => call('/v1/pets?limit=100', { headers: key })

const phases = {
  async shared() {
    for (const [name, call] of Object.entries(replicas)) {
      const health = await call('/__admin/health')
      check(`health on ${name}: 200, status ok`, health.status === 200 && health.body?.status === 'ok', show(health))
    }
    const created = await a('/v1/pets', {
      method: 'POST',
      headers: { ...key, ...json },
      body: '{"name":"Shared","categoryId":2}',
    })
    const pet = created.body
    check(
      'create on A: 201 with Location',
      created.status === 201 &&
        Number.isInteger(pet?.id) &&
        same(pet, { id: pet.id, name: 'Shared', categoryId: 2 }) &&
        created.headers.get('location') === `/v1/pets/${pet.id}`,
      show(created.status, created.headers.get('location'), pet),
    )
    const read = await readPet(b, pet?.id)
    check('read on B: 200, the same pet', read.status === 200 && same(read.body, pet), show(read))
    const [listA, listB] = [await listPets(a), await listPets(b)]
    check(
      'list on B: 200, the pet once, the same list as on A',
      listB.status === 200 &&
        same(
          listB.body.filter((p) => p.id === pet?.id),
          [pet],
        ) &&
        same(listA.body, listB.body),
      show(listA, listB),
    )

    const rule = await a('/__admin/faults', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ operation: 'getPet', status: 429, times: 1 }),
    })
    check(
      'fault rule with times 1 set on A: 201',
      rule.status === 201 &&
        same(rule.body, { id: rule.body?.id, operation: 'getPet', status: 429, times: 1, remaining: 1 }),
      show(rule),
    )
    const fired = await readPet(b, pet?.id)
    check(
      'the rule fires on B: 429 too_many_requests',
      fired.status === 429 &&
        same(fired.body, { code: 'too_many_requests', message: 'Too many requests; retry later.', status: 429 }),
      show(fired),
    )
    const [againB, againA] = [await readPet(b, pet?.id), await readPet(a, pet?.id)]
    const spent = await b('/__admin/faults')
    check(
      'and never again, on B or A: 200 with the pet; B lists no rule left',
      againB.status === 200 &&
        same(againB.body, pet) &&
        againA.status === 200 &&
        same(againA.body, pet) &&
        spent.status === 200 &&
        same(spent.body, { faults: [] }),
      show(againB, againA, spent),
    )
    writeFileSync(stateFile, JSON.stringify(pet))
  },

  async restarted() {
    const pet = JSON.parse(readFileSync(stateFile, 'utf8'))
    for (const [name, call] of Object.entries(replicas)) {
      const read = await readPet(call, pet.id)
      check(
        `after A was killed and started again: the pet on ${name}, 200`,
        read.status === 200 && same(read.body, pet),
        show(read),
      )
    }
  },

  async down() {
    const pet = JSON.parse(readFileSync(stateFile, 'utf8'))
    const health = await until(
      () => b('/__admin/health'),
      (r) => r.status === 503,
      150,
    )
    check(
      'Redis stopped: health on B answers 503 store_unavailable',
      health.status === 503 && same(health.body, unavailable),
      show(health),
    )
    const read = await readPet(b, pet.id)
    check(
      'Redis stopped: a read on B answers 503 store_unavailable, Retry-After 1',
      read.status === 503 && same(read.body, unavailable) && read.headers.get('retry-after') === '1',
      show(read, read.headers.get('retry-after')),
    )
    const refused = await b('/v1/pets', {
      method: 'POST',
      headers: { ...key, ...json },
      body: '{"name":"Refused","categoryId":1}',
    })
    check(
      'Redis stopped: a create on B answers 503 store_unavailable',
      refused.status === 503 && same(refused.body, unavailable),
      show(refused),
    )
  },

  async resumed() {
    const pet = JSON.parse(readFileSync(stateFile, 'utf8'))
    for (const [name, call] of Object.entries(replicas)) {
      const health = await until(
        () => call('/__admin/health'),
        (r) => r.status === 200,
        300,
      )
      check(`Redis started again: health on ${name} 200`, health.status === 200, show(health))
    }
    const [listA, listB] = [await listPets(a), await listPets(b)]
    check(
      'Redis started again: the pet is listed on both, the refused create is not',
      listB.status === 200 &&
        same(
          listB.body.filter((p) => p.id === pet.id),
          [pet],
        ) &&
        !listB.body.some((p) => p.name === 'Refused') &&
        same(listA.body, listB.body),
      show(listA, listB),
    )
    const read = await readPet(a, pet.id)
    check('Redis started again: the pet read on A, 200', read.status === 200 && same(read.body, pet), show(read))
  },
}

if (!(phase in phases)) {
  console.log(`FAIL redis-replicas.mjs: no phase ${phase} (${Object.keys(phases).join(', ')})`)
  process.exit(1)
}
await phases[phase]()
finish()
