import { afterAll, beforeAll, expect } from 'vitest'
import { takenRequest } from './in-flight.js'
import { bearer } from './auth.js'
import { type SpawnedServer, spawnServer } from './spawn-server.js'
import { type RedisServer, startRedis } from './redis-server.js'

/** A fetch that must be answered within 10 s (a hang fails the test instead of stalling it). */
export const answered = (url: string, init: RequestInit = {}): Promise<Response> =>
  fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })

/** The readiness probe's status and body. */
export const readiness = async (
  url: string,
): Promise<{ status: number; body: { status?: string; message?: string } }> => {
  const res = await answered(`${url}/__admin/health/ready`)
  return { status: res.status, body: (await res.json()) as { status?: string; message?: string } }
}

/** Asks readiness until it answers `status` (at most 100 tries, 100 ms apart); the last answer. */
export const readinessUntil = async (url: string, status: number) => {
  for (let attempt = 0; ; attempt++) {
    const last = await readiness(url).catch((error: Error) => ({ status: 0, body: { message: error.message } }))
    if (last.status === status || attempt >= 100) return last
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Spawns with the default drain (spawnServer's default is none): the variable unset. */
export const defaultDrain = { PETSTORE_MOCK_DRAIN_SECONDS: undefined }

/** What {@link slowPostThroughStop} saw. */
export interface SlowPostStop {
  /** The POST's status and pet. */
  created: { status: number; pet: { id: number; name: string } }
  /** Readiness once the signal was sent. */
  notReady: { status: number; body: { message?: string } }
  /** A GET sent after readiness turned 503, still served: its status and Connection header. */
  servedMeanwhile: { status: number; connection: string | null }
  /** The pet read back before the exit (same replica). */
  readBack: { status: number; pet: unknown }
  exitCode: number | null
}

/**
 * The reproduction of issue 41 §1: a POST delayed 2 s (`?__delay=2000`) is in the server's hands
 * (it answered 100 Continue) when the server gets SIGTERM. Then readiness is asked until it says
 * 503, a GET is sent (served: the server drains, still accepting), the POST's answer is awaited
 * and the pet read back, and the exit code is awaited.
 */
export const slowPostThroughStop = async (server: SpawnedServer, session: string): Promise<SlowPostStop> => {
  const headers = { ...bearer(), 'Content-Type': 'application/json' }
  const base = `${server.url}/sessions/${session}/v1/pets`
  const post = takenRequest(`${base}?__delay=2000`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Slow', categoryId: 1 }),
  })
  await post.taken
  const exited = server.stop('SIGTERM')
  const notReady = await readinessUntil(server.url, 503)
  const meanwhile = await answered(base, { headers: bearer() })
  await meanwhile.arrayBuffer()
  const answer = await post.answer
  const pet = JSON.parse(answer.body) as { id: number; name: string }
  const read = await answered(`${base}/${pet.id}`, { headers: bearer() })
  return {
    created: { status: answer.status, pet },
    notReady,
    servedMeanwhile: { status: meanwhile.status, connection: meanwhile.headers.get('connection') },
    readBack: { status: read.status, pet: await read.json() },
    exitCode: await exited,
  }
}

/** The expectations every store shares: 201, 503 while draining, served meanwhile, read back, exit 0. */
export const expectCleanStop = (seen: SlowPostStop): void => {
  expect(seen.created.status).toBe(201)
  expect(seen.created.pet).toMatchObject({ name: 'Slow', categoryId: 1 })
  expect(seen.notReady.status).toBe(503)
  expect(seen.notReady.body.message).toMatch(/stopping \(SIGTERM\)/)
  expect(seen.servedMeanwhile).toEqual({ status: 200, connection: 'close' })
  expect(seen.readBack).toEqual({ status: 200, pet: seen.created.pet })
  expect(seen.exitCode).toBe(0)
}

/**
 * A redis-server of the test file's own (started before its tests, disposed after) and
 * `replica(prefix, env)`: a CLI replica on it with that key prefix, default settings otherwise
 * (killed after the file's tests if still running).
 */
export const replicasOnOwnRedis = () => {
  let redis: RedisServer | undefined
  const started: SpawnedServer[] = []
  beforeAll(async () => {
    redis = await startRedis()
  }, 30_000)
  afterAll(async () => {
    for (const server of started) if (server.child.exitCode === null) server.child.kill('SIGKILL')
    await redis?.dispose()
  })
  return {
    /** The redis-server's URL (once started). */
    url: (): string => redis!.url,
    replica: async (prefix: string, env: NodeJS.ProcessEnv = {}): Promise<SpawnedServer> => {
      const server = await spawnServer(['--store', redis!.url, '--store-prefix', prefix], env, 15_000)
      started.push(server)
      return server
    },
  }
}
