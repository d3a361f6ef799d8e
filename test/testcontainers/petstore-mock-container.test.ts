import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getContainerRuntimeClient } from 'testcontainers'
import { afterAll, describe, expect, it } from 'vitest'
import { createMockClient, MockAdminError } from '../../src/client/index.js'
import { fakePets } from '../../src/core/pets/seed.js'
import {
  defaultImage,
  PetstoreMockContainer,
  type StartedPetstoreMockContainer,
} from '../../src/testcontainers/index.js'
import { delayedAtLeast } from '../helpers/asked-delay.js'
import { bearer } from '../helpers/auth.js'

// Run by `npm run test:testcontainers` (test/testcontainers/run.sh), which builds the image, sets
// DOCKER_HOST (Podman's Docker API when there is no Docker), TESTCONTAINERS_RYUK_DISABLED and
// TESTCONTAINERS_HOST_OVERRIDE, and labels what it creates with PETSTORE_MOCK_TC_RUN.
const runLabel = { 'petstore-mock.test-run': process.env['PETSTORE_MOCK_TC_RUN'] ?? 'petstore-mock-tc-local' }
const image = process.env['PETSTORE_MOCK_IMAGE'] ?? defaultImage

const started: StartedPetstoreMockContainer[] = []
const dir = mkdtempSync(join(tmpdir(), 'petstore-tc-'))

/** Starts a container of this run; every one is stopped in afterAll, also when a test fails. */
const start = async (container: PetstoreMockContainer): Promise<StartedPetstoreMockContainer> => {
  const running = await container.withLabels(runLabel).start()
  started.push(running)
  return running
}

afterAll(async () => {
  await Promise.allSettled(started.map((container) => container.stop()))
  rmSync(dir, { recursive: true, force: true })
})

const get = (url: string, key = 'any-key') => fetch(url, { headers: bearer(key) })

describe('PetstoreMockContainer', () => {
  it('defaults to the image of this package version', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    expect(defaultImage).toBe(`petstore-mock:${version}`)
  })

  it('starts with fixtures, faults, API keys and an admin token given as values', async () => {
    const mock = await start(
      new PetstoreMockContainer(image)
        .withFixtures([
          { id: 1, name: 'Rex', categoryId: 2, status: 'available' },
          { id: 7, name: 'Faulty', categoryId: 1 },
        ])
        .withFaults([{ operation: 'getPet', petId: 7, status: 503 }])
        .withApiKeys(['key-1', 'key-2'])
        .withAdminToken('adm'),
    )
    expect(mock.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(mock.apiUrl).toBe(`${mock.baseUrl}/v1`)
    expect((await get(`${mock.apiUrl}/pets`, 'key-2')).status).toBe(200)
    expect((await get(`${mock.apiUrl}/pets`, 'other')).status).toBe(401)
    expect((await get(`${mock.apiUrl}/pets/7`, 'key-1')).status).toBe(503)
    expect(await mock.client.state.get()).toEqual([
      { id: 1, name: 'Rex', categoryId: 2, status: 'available' },
      { id: 7, name: 'Faulty', categoryId: 1 },
    ])
    expect(await mock.client.faults.list()).toEqual([{ id: 1, operation: 'getPet', petId: 7, status: 503 }])
    const entry = await mock.client.requests.waitFor({ path: '/v1/pets/7', status: 503 })
    expect(entry.authorization).toBe('Bearer …')
    const denied = await createMockClient({ baseUrl: mock.baseUrl })
      .faults.list()
      .catch((error: unknown) => error)
    expect(denied).toBeInstanceOf(MockAdminError)
    expect(denied).toMatchObject({ status: 401, code: 'unauthorized' })
  })

  it('a session by base URL: sessionUrl(name) for the service under test, sessionClient(name) (issue 28)', async () => {
    const mock = await start(new PetstoreMockContainer(image))
    // The image is a single-job container: open without a token, by choice, and it says so.
    expect(await (await fetch(`${mock.baseUrl}/__admin/health`)).json()).toMatchObject({ admin: 'open' })
    expect(mock.sessionUrl('tc-job')).toBe(`${mock.baseUrl}/sessions/tc-job`)
    const created = await fetch(`${mock.sessionUrl('tc-job')}/v1/pets`, {
      method: 'POST',
      headers: { ...bearer('k'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Tc', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toMatch(/^\/sessions\/tc-job\/v1\/pets\/\d+$/)
    expect(created.headers.get('x-mock-session-created')).toBe('true')
    const job = mock.sessionClient('tc-job')
    expect((await job.state.get()).map((pet) => pet.name)).toContain('Tc')
    expect(await job.requests.count({ operation: 'createPet' })).toBe(1)
    expect((await mock.client.state.get()).map((pet) => pet.name)).not.toContain('Tc')
  })

  it('copies files into the container (no bind mount): fixtures YAML, faults JSON, a fixed delay', async () => {
    const pets = join(dir, 'pets.yaml')
    const faults = join(dir, 'faults.json')
    writeFileSync(pets, 'pets:\n  - { id: 3, name: FromFile, categoryId: 4, status: sold }\n')
    writeFileSync(faults, '[{ "operation": "listPets", "status": 429, "times": 1 }]')
    const mock = await start(new PetstoreMockContainer(image).withFixtures(pets).withFaults(faults).withDelay(40))
    expect((await get(`${mock.apiUrl}/pets`)).status).toBe(429)
    const list = await delayedAtLeast(39, () => get(`${mock.apiUrl}/pets`))
    expect(await list.json()).toEqual([{ id: 3, name: 'FromFile', categoryId: 4, status: 'sold' }])
    const client = await getContainerRuntimeClient()
    const inspect = await client.container.inspect(client.container.getById(mock.getId()))
    expect(inspect.Mounts).toEqual([])
    expect(inspect.Config.Env).toEqual(
      expect.arrayContaining([
        'PETSTORE_MOCK_FIXTURES=/data/fixtures.yaml',
        'PETSTORE_MOCK_FAULTS=/data/faults.json',
        'PETSTORE_MOCK_DELAY=40',
      ]),
    )
  })

  it('withFaker and withSeed: the same pets as fakePets(count, seed); withDelay as a range', async () => {
    const mock = await start(new PetstoreMockContainer(image).withFaker(7).withSeed(3).withDelay({ min: 20, max: 30 }))
    expect(await mock.client.state.get()).toEqual(await fakePets(7, 3))
    await get(`${mock.apiUrl}/pets`)
    const [entry] = await mock.client.requests.list()
    expect(entry?.shapedBy).toEqual([{ by: 'latency', delayMs: expect.any(Number) }])
    const delay = (entry?.shapedBy?.[0] as { delayMs: number }).delayMs
    expect(delay).toBeGreaterThanOrEqual(20)
    expect(delay).toBeLessThanOrEqual(30)
  })

  it('fails fast, quoting the server, when the container exits before it is healthy', async () => {
    // Fast: from the health wait's first look at the stopped container, not when its 60 s startup
    // timeout runs out, which fails with another message ("did not answer 200 … within 60000 ms").
    const error = await new PetstoreMockContainer(image)
      .withLabels(runLabel)
      .withFaults([{ operation: 'getPet', status: 200 }])
      .start()
      .then(
        async (running) => {
          started.push(running)
          return undefined
        },
        (e: Error) => e,
      )
    expect(error?.message).toBe(
      'petstore-mock exited with code 1 before /__admin/health answered; its output:\n' +
        'petstore-mock: /data/faults.json: entry 0: status must be an integer between 400 and 599',
    )
  })

  it('refuses API keys the variable cannot carry; a missing file fails in the builder', () => {
    expect(() => new PetstoreMockContainer(image).withApiKeys(['a,b'])).toThrow(
      'API keys cannot be empty or hold commas or spaces (got "a,b").',
    )
    expect(() => new PetstoreMockContainer(image).withFixtures(join(dir, 'nope.yaml'))).toThrow(/ENOENT/)
  })
})
