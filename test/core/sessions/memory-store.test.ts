import { describe, expect, it } from 'vitest'
import { SessionRegistry } from '../../../src/core/sessions/memory-store.js'
import { startWorld } from '../../../src/core/sessions/world.js'
import { onePet } from '../../helpers/fixtures.js'
import { journalRecord } from '../../helpers/journal-records.js'

const start = {
  world: startWorld({
    pets: onePet(),
    faults: [{ status: 500, times: 1 }],
    latency: undefined,
    seed: 1,
  }),
  maxPets: 100,
  journalSize: 10,
}
const record = journalRecord(0, { url: 'http://localhost/', path: '/', operation: null, durationMs: 0 })

describe('SessionRegistry', () => {
  it('creates sessions on first use from the start state', () => {
    const sessions = new SessionRegistry(start, 10)
    const a = sessions.session('a')
    expect(a.store.size).toBe(1)
    expect(a.faults.list()).toEqual([{ id: 1, status: 500, times: 1, remaining: 1 }])
    expect(sessions.session('a')).toBe(a)
  })

  it('refuses a new session at the maximum rather than dropping a live one (issue 28)', () => {
    const sessions = new SessionRegistry(start, 2)
    sessions.session('a')
    sessions.session('b')
    sessions.session('a')
    expect(sessions.sessions().map((s) => s.name)).toEqual(['default', 'b', 'a'])
    expect(sessions.select('c', 'use')).toEqual({ outcome: 'full', sessions: 2, max: 2 })
    expect(() => sessions.session('c')).toThrow(/2 sessions exist, the most this server keeps \(--max-sessions 2\)/)
    expect(sessions.sessions().map((s) => s.name)).toEqual(['default', 'b', 'a'])
  })

  it('resets a session to the start state', () => {
    const sessions = new SessionRegistry(start, 3)
    const s = sessions.session('x')
    s.store.create({ name: 'n', categoryId: 1 })
    s.faults.clear()
    s.journal.record(record)
    s.reset()
    expect(s.summary()).toEqual({ name: 'x', pets: 1, faults: 1, requests: 0 })
    expect(s.store.create({ name: 'n', categoryId: 1 })).toMatchObject({ id: 2 })
  })

  it('deletes named sessions but not the default', () => {
    const sessions = new SessionRegistry(start, 3)
    sessions.session('a')
    expect(sessions.dropSession('a')).toBe(true)
    expect(sessions.dropSession('a')).toBe(false)
    expect(sessions.dropSession('default')).toBe(false)
  })

  it('ends the journal subscriptions of a session it drops, deleted or evicted, and of all on close', () => {
    const sessions = new SessionRegistry(start, 1)
    const ended: string[] = []
    const listen = (name: string) =>
      sessions.session(name).journal.subscribe({ record: () => {}, end: () => ended.push(name) })
    listen('a')
    sessions.dropSession('a')
    listen('b')
    expect(ended).toEqual(['a'])
    listen('default')
    sessions.close()
    expect(ended.sort()).toEqual(['a', 'b', 'default'])
  })

  it('keeps the journal, its subscribers and its ids across a reset', () => {
    const sessions = new SessionRegistry(start, 3)
    const s = sessions.session('x')
    const seen: number[] = []
    s.journal.subscribe({ record: (r) => seen.push(r.id), end: () => {} })
    s.journal.record(record)
    s.reset()
    s.journal.record(record)
    expect(seen).toEqual([1, 2])
    expect(s.journal.list().map((r) => r.id)).toEqual([2])
  })
})
