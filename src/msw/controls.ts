import type { PreparedMock } from '../core/app.js'
import {
  checkRuleName,
  ruleValidatorFor,
  type FaultRule,
  type FaultRuleInput,
  maxFaultRules,
} from '../core/faults/rule-check.js'
import { insufficientStorage } from '../core/budget/insufficient-storage.js'
import { isStorageRefusal } from '../core/budget/storage-refusal.js'
import type { JournalQuery } from '../core/journal/journal.js'
import type { JournalEntry } from '../core/journal/journal-entry.js'
import { toEntry } from '../core/journal/journal-entry.js'
import { isSessionName } from '../core/http/request/session-name.js'
import type { Pet } from '../core/spec/pet.js'
import type { SessionState } from '../core/sessions/port.js'
import { type MaybePromise, whenReady } from '../core/async/maybe-promise.js'
import { PetstoreMockError } from './errors.js'
import { coverageModel, type CoverageModel } from '../core/coverage/coverage-model.js'
import { type CoverageReport, coverageReport } from '../core/coverage/coverage-report.js'
import { type PactDocument, pactDocument } from '../core/coverage/pact-document.js'
import { packageVersion } from '../generated/contract.js'
import { checkPets } from './options.js'

/** Which session a control works on; default: the one requests without X-Mock-Session use. */
export interface SessionOption {
  session?: string
}

/**
 * The mock's controls without HTTP, for test set-up: what /__admin offers,
 * as calls. Each resolves once the start-up pets are ready (faker).
 */
export interface PetstoreControls {
  /**
   * Resolves once the mock exists with its start-up pets: when the page is first idle or the mock
   * first used (a request, a control), and with faker once its pets are made.
   */
  readonly ready: Promise<void>
  /**
   * Back to the start-up state: pets, fault rules, empty journal, ids. With
   * no session named, every session (named ones are dropped); else that one.
   */
  reset(options?: SessionOption): Promise<void>
  /** The session's journal, newest first (as GET /__admin/requests). */
  journal(query?: JournalQuery & SessionOption): Promise<JournalEntry[]>
  clearJournal(options?: SessionOption): Promise<void>
  /** The session's fault rules, with remaining counts. */
  faults(options?: SessionOption): Promise<FaultRule[]>
  /** Adds a rule (checked as POST /__admin/faults); resolves with it, id included. */
  addFault(rule: FaultRuleInput, options?: SessionOption): Promise<FaultRule>
  /**
   * Sets the rule named `name` (as PUT /__admin/faults/{name}): replaced in place when the
   * session has one of that name, else added; resolves with it and whether it was created.
   */
  putFault(name: string, rule: FaultRuleInput, options?: SessionOption): Promise<{ rule: FaultRule; created: boolean }>
  /** Removes one rule by id or name (as DELETE /__admin/faults/{rule}); false when there is none. */
  removeFault(rule: number | string, options?: SessionOption): Promise<boolean>
  clearFaults(options?: SessionOption): Promise<void>
  /** Every pet of the session, by id. */
  pets(options?: SessionOption): Promise<Pet[]>
  /** Replaces the session's pets (checked like fixtures); new ids continue after the largest. */
  setPets(pets: readonly Pet[], options?: SessionOption): Promise<void>
  /** The session's contract coverage (as GET /__admin/coverage). */
  coverage(options?: SessionOption): Promise<CoverageReport>
  /** Forgets the session's coverage counts and kept interactions. */
  clearCoverage(options?: SessionOption): Promise<void>
  /** The session's distinct interactions as a Pact V4 document (as GET /__admin/pact). */
  pact(options: { consumer: string; provider?: string } & SessionOption): Promise<PactDocument>
}

/** What the controls work on: the sessions and the contract, not the app (its routes may come later). */
type MockState = Pick<PreparedMock, 'sessions' | 'spec'>

const sessionOf = (mock: MockState, options: SessionOption = {}): MaybePromise<SessionState> => {
  const name = options.session
  if (name !== undefined && (typeof name !== 'string' || !isSessionName(name))) {
    throw new PetstoreMockError(`session must be 1 to 64 characters of A-Z a-z 0-9 . _ - (got ${JSON.stringify(name)})`)
  }
  return mock.sessions.session(name)
}

/**
 * Controls over the mock `start` makes (or made: it makes it once) and `made` resolves with once it
 * exists, whoever started it.
 */
export const createControls = (start: () => Promise<MockState>, made: Promise<MockState>): PetstoreControls => {
  // Checked as the admin API checks, against the operations of the contract in use.
  let validateRule: Promise<ReturnType<typeof ruleValidatorFor>> | undefined
  const ruleValidator = () => (validateRule ??= start().then((mock) => ruleValidatorFor(mock.spec)))
  const on = async <T>(
    options: SessionOption | undefined,
    use: (session: SessionState, mock: MockState) => MaybePromise<T>,
  ): Promise<T> => {
    const mock = await start()
    return use(await sessionOf(mock, options), mock)
  }
  let model: CoverageModel | undefined
  const modelOf = (mock: MockState): CoverageModel => (model ??= coverageModel(mock.spec))
  const pending = made.then(() => undefined)
  pending.catch(() => {})
  return {
    ready: pending,
    reset: async (options) => {
      const mock = await start()
      if (options?.session !== undefined) return (await sessionOf(mock, options)).reset()
      for (const session of await mock.sessions.sessions()) {
        if (!(await mock.sessions.dropSession(session.name))) await session.reset()
      }
    },
    journal: ({ session, ...query } = {}) =>
      on({ session }, (s, mock) => {
        const operations = mock.spec.operations.map((op) => op.id)
        if (query.operation !== undefined && !operations.includes(query.operation)) {
          throw new PetstoreMockError(`journal: operation must be one of ${operations.join(', ')}`)
        }
        return whenReady(s.requests(query), (records) => records.map(toEntry))
      }),
    clearJournal: (options) => on(options, (s) => s.clearRequests()),
    faults: (options) => on(options, (s) => s.listFaults()),
    addFault: async (input, options) => {
      const rule = (await ruleValidator())(input)
      if (typeof rule === 'string') throw new PetstoreMockError(`addFault: ${rule}`)
      const added = await on(options, (s) => s.addFault(rule))
      if (added === 'full')
        throw new PetstoreMockError(`addFault: the session holds ${maxFaultRules} fault rules, the most it may`)
      if (isStorageRefusal(added)) throw new PetstoreMockError(`addFault: ${insufficientStorage(added).message}`)
      return added
    },
    putFault: async (name, input, options) => {
      const problem = checkRuleName(name)
      if (problem) throw new PetstoreMockError(`putFault: ${problem}`)
      const rule = (await ruleValidator())(input)
      if (typeof rule === 'string') throw new PetstoreMockError(`putFault: ${rule}`)
      const put = await on(options, (s) => s.putFault(name, rule))
      if (put === 'full')
        throw new PetstoreMockError(`putFault: the session holds ${maxFaultRules} fault rules, the most it may`)
      if (isStorageRefusal(put)) throw new PetstoreMockError(`putFault: ${insufficientStorage(put).message}`)
      return put
    },
    removeFault: (ref, options) =>
      on(options, (s) => (typeof ref === 'number' ? s.removeFault(ref) : s.removeNamedFault(ref))),
    clearFaults: (options) => on(options, (s) => s.clearFaults()),
    pets: (options) => on(options, (s) => s.allPets()),
    setPets: (pets, options) =>
      on(options, (s, mock) =>
        whenReady(s.replacePets(checkPets(pets, mock.spec, s.maxPets, 'setPets')), (refused) => {
          if (refused) throw new PetstoreMockError(`setPets: ${insufficientStorage(refused).message}`)
        }),
      ),
    coverage: (options) =>
      on(options, (s, mock) =>
        whenReady(s.coverageCounts(), (counts) => coverageReport(modelOf(mock), s.name, counts)),
      ),
    clearCoverage: (options) => on(options, (s) => s.clearCoverage()),
    pact: ({ consumer, provider, session } = { consumer: '' }) =>
      on({ session }, (s, mock) => {
        if (typeof consumer !== 'string' || consumer === '') throw new PetstoreMockError('pact: consumer is required')
        const name = provider ?? String(mock.spec.document['info']?.['title'] ?? 'provider')
        return whenReady(s.keptInteractions(), (kept) =>
          pactDocument(mock.spec, kept, { consumer, provider: name, session: s.name, version: packageVersion }),
        )
      }),
  }
}
