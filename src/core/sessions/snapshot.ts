import { clockAt, type ClockSetting, type ClockView, realClock } from '../time/clock.js'
import type { FaultRule } from '../faults/rule-check.js'
import type { Pet } from '../spec/pet.js'
import type { StorageRefusal } from '../budget/storage-refusal.js'
import { PetIndex } from '../pets/pet-index.js'
import type { RandomState } from '../faults/random.js'
import { formatRate, parseRate, type RateLimitPolicy } from '../rate-limit/rate-limit.js'
import type { SessionContents, SessionState } from './port.js'
import { type MaybePromise, whenReady } from '../async/maybe-promise.js'
import type { LatencyRange, World } from './world.js'

/** The version of the snapshot format this server reads and writes. */
export const snapshotFormat = 1

/**
 * A reproduction bundle: a session's whole world as a document (GET and PUT
 * /__admin/snapshot, --snapshot). Restoring it and sending the same requests
 * gives the same answers, rule probabilities and latency draws included.
 */
export interface Snapshot {
  format: typeof snapshotFormat
  /** The version that wrote it; informative. */
  petstoreMock: string
  seed: number
  pets: Pet[]
  nextId: number
  faults: FaultRule[]
  nextFaultId: number
  latency: LatencyRange | null
  /** The seeded generator's position: xoroshiro128+'s four int32 words. */
  random: RandomState
  /** The mock clock (null: real time); an advancing one advances from the restore on. */
  clock: { now: string; frozen: boolean } | null
  /** The rate limit per API key (`100/m`; null: none); its windows start afresh on a restore. */
  rateLimit: string | null
}

/** The session world a (checked) snapshot describes. */
export const worldOf = (snapshot: Snapshot): World => ({
  pets: PetIndex.from(snapshot.pets),
  nextId: snapshot.nextId,
  faults: snapshot.faults,
  nextFaultId: snapshot.nextFaultId,
  latency: snapshot.latency,
  seed: snapshot.seed,
  random: snapshot.random,
})

/** A snapshot's clock as a session's setting: from now on it shows `now` (and advances unless frozen). */
export const clockSettingOf = (clock: Snapshot['clock']): ClockSetting =>
  clock === null ? realClock : clockAt(Date.parse(clock.now), clock.frozen)

/** A snapshot's rate limit as a policy. */
export const rateLimitOf = (rate: string | null): RateLimitPolicy | undefined =>
  rate === null ? undefined : parseRate(rate)

/** Restores a (checked) snapshot into a session, in one change: world, clock and rate limit; the journal stays. */
export const restoreSnapshot = (session: SessionState, snapshot: Snapshot): MaybePromise<void | StorageRefusal> =>
  session.load(worldOf(snapshot), clockSettingOf(snapshot.clock), rateLimitOf(snapshot.rateLimit))

/** A clock as a snapshot writes it: null for real time. */
export const snapshotClock = ({ now, frozen, real }: ClockView): Snapshot['clock'] => (real ? null : { now, frozen })

/** A session's contents as a snapshot document. */
const snapshotDocument = (contents: SessionContents, version: string): Snapshot => ({
  format: snapshotFormat,
  petstoreMock: version,
  seed: contents.seed,
  pets: contents.pets,
  nextId: contents.nextId,
  faults: contents.faults,
  nextFaultId: contents.nextFaultId,
  latency: contents.latency,
  random: contents.random,
  clock: snapshotClock(contents.clock),
  rateLimit: contents.rateLimit ? formatRate(contents.rateLimit) : null,
})

/** A session's world as it stands, as a snapshot document. */
export const snapshotOf = (session: SessionState, version: string): MaybePromise<Snapshot> =>
  whenReady(session.contents(), (contents) => snapshotDocument(contents, version))
