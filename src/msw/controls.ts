import { MockAdminError } from '../client/mock-admin-error.js'
import type { MockClient } from '../client/mock-client.js'
import { lazyMockClient } from './lazy-client.js'
import { PetstoreMockError } from './errors.js'

type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>
type FaultRule = Answer<MockClient['faults']['add']>
type FaultRuleInput = Parameters<MockClient['faults']['add']>[0]
type JournalEntry = Answer<MockClient['requests']['list']>[number]
type JournalQuery = NonNullable<Parameters<MockClient['requests']['list']>[0]>
type Pet = Answer<MockClient['state']['get']>[number]
type CoverageReport = Answer<MockClient['coverage']>
type PactDocument = Answer<MockClient['pact']>

/** Which session a control works on; default: the one requests without X-Mock-Session use. */
export interface SessionOption {
  session?: string
}

/**
 * The mock's controls without HTTP, for test set-up: `client` is petstore-mock/client's typed client,
 * answered by the mock in the same process (no socket, no worker). The flat calls (`addFault`,
 * `journal`, …) are the earlier names, kept as deprecated aliases of the client's.
 */
export interface PetstoreControls {
  /**
   * Resolves once the mock exists with its start-up pets: when the page is first idle or the mock
   * first used (a request, a control), and with faker once its pets are made.
   */
  readonly ready: Promise<void>
  /**
   * The typed client of petstore-mock/client over the mock in this process: the same calls, answers
   * and `MockAdminError`s as against a server (`client.faults.add(…)`, `client.withSession('a')`).
   */
  readonly client: MockClient
  /**
   * Back to the start-up state: pets, fault rules, empty journal, ids. With
   * no session named, every session (named ones are dropped); else that one.
   */
  reset(options?: SessionOption): Promise<void>
  /** @deprecated Use `client.requests.list(query)` (`client.withSession(name)` for a session). */
  journal(query?: JournalQuery & SessionOption): Promise<JournalEntry[]>
  /** @deprecated Use `client.requests.clear()`. */
  clearJournal(options?: SessionOption): Promise<void>
  /** @deprecated Use `client.faults.list()`. */
  faults(options?: SessionOption): Promise<FaultRule[]>
  /** @deprecated Use `client.faults.add(rule)`. */
  addFault(rule: FaultRuleInput, options?: SessionOption): Promise<FaultRule>
  /** @deprecated Use `client.faults.put(name, rule)`. */
  putFault(name: string, rule: FaultRuleInput, options?: SessionOption): Promise<{ rule: FaultRule; created: boolean }>
  /** @deprecated Use `client.faults.remove(rule)` (which rejects with a 404 where this resolves false). */
  removeFault(rule: number | string, options?: SessionOption): Promise<boolean>
  /** @deprecated Use `client.faults.clear()`. */
  clearFaults(options?: SessionOption): Promise<void>
  /** @deprecated Use `client.state.get()`. */
  pets(options?: SessionOption): Promise<Pet[]>
  /** @deprecated Use `client.state.put(pets)`. */
  setPets(pets: readonly Pet[], options?: SessionOption): Promise<void>
  /** @deprecated Use `client.coverage()`. */
  coverage(options?: SessionOption): Promise<CoverageReport>
  /** @deprecated Use `client.clearCoverage()`. */
  clearCoverage(options?: SessionOption): Promise<void>
  /** @deprecated Use `client.pact({ consumer, provider })`. */
  pact(options: { consumer: string; provider?: string } & SessionOption): Promise<PactDocument>
}

// The origin the in-process client names: loopback, which the admin Host check always accepts.
const inProcessOrigin = 'http://127.0.0.1'

/**
 * Controls over the mock `send` answers (the app's own `fetch`, in this process) once `made` resolves
 * with it, whoever started it. Every argument is checked by the admin routes, as over HTTP: the
 * deprecated calls name themselves in the server's message (`addFault: status must be …`).
 */
export const createControls = (
  send: (request: Request) => Promise<Response>,
  made: Promise<unknown>,
  adminToken: string | undefined,
): PetstoreControls => {
  const client = lazyMockClient({
    baseUrl: inProcessOrigin,
    ...(adminToken !== undefined && { adminToken }),
    fetch: (url, init) => send(new Request(url, init)),
  })
  const on = async <T>(name: string, options: SessionOption | undefined, use: (c: MockClient) => Promise<T>) => {
    try {
      const session = options?.session
      if (session === undefined) return await use(client)
      // A control that names a session makes it, as it always did (an admin read alone would be a 404).
      await client.sessions.open(session)
      return await use(client.withSession(session))
    } catch (error) {
      if (error instanceof MockAdminError) throw new PetstoreMockError(`${name}: ${error.body.message}`)
      throw error
    }
  }
  const pending = made.then(() => undefined)
  pending.catch(() => {})
  return {
    ready: pending,
    client,
    reset: (options) =>
      on('reset', options, async (c) => {
        if (options?.session !== undefined) return c.reset()
        for (const { name } of await c.sessions.list()) {
          if (name !== 'default') await c.sessions.delete(name)
        }
        await c.reset()
      }),
    journal: ({ session, ...query } = {}) => on('journal', { session }, (c) => c.requests.list(query)),
    clearJournal: (options) => on('clearJournal', options, (c) => c.requests.clear()),
    faults: (options) => on('faults', options, (c) => c.faults.list()),
    addFault: (rule, options) => on('addFault', options, (c) => c.faults.add(rule)),
    putFault: (name, rule, options) => on('putFault', options, (c) => c.faults.put(name, rule)),
    removeFault: (rule, options) =>
      on('removeFault', options, (c) =>
        c.faults.remove(rule).then(
          () => true,
          (error: unknown) => {
            if (error instanceof MockAdminError && error.code === 'not_found') return false
            throw error
          },
        ),
      ),
    clearFaults: (options) => on('clearFaults', options, (c) => c.faults.clear()),
    pets: (options) => on('pets', options, (c) => c.state.get()),
    setPets: (pets, options) => on('setPets', options, (c) => c.state.put(pets)),
    coverage: (options) => on('coverage', options, (c) => c.coverage()),
    clearCoverage: (options) => on('clearCoverage', options, (c) => c.clearCoverage()),
    pact: ({ session, ...names } = { consumer: '' }) => on('pact', { session }, (c) => c.pact(names)),
  }
}
