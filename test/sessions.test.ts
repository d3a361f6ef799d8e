import { describe, expect, it } from 'vitest'
import { PetIndex } from '../src/core/pet-index.js'
import { SessionRegistry } from '../src/core/sessions.js'

const start = {
  pets: PetIndex.from([{ id: 1, name: 'a', categoryId: 1 }]),
  maxPets: 100,
  faults: [{ status: 500, times: 1 }],
  journalSize: 10,
  seed: 1,
}

describe('SessionRegistry', () => {
  it('creates sessions on first use from the start state', () => {
    const sessions = new SessionRegistry(start, 10)
    const a = sessions.get('a')
    expect(a.store.size).toBe(1)
    expect(a.faults.list()).toEqual([{ id: 1, status: 500, times: 1, remaining: 1 }])
    expect(sessions.get('a')).toBe(a)
  })

  it('drops the least recently used session beyond the maximum, never the default', () => {
    const sessions = new SessionRegistry(start, 3)
    sessions.get('a')
    sessions.get('b')
    sessions.get('a')
    sessions.get('c')
    expect(sessions.list().map((s) => s.name)).toEqual(['default', 'a', 'c'])
    sessions.get('d')
    expect(sessions.list().map((s) => s.name)).toEqual(['default', 'c', 'd'])
  })

  it('resets a session to the start state', () => {
    const sessions = new SessionRegistry(start, 3)
    const s = sessions.get('x')
    s.store.create({ name: 'n', categoryId: 1 })
    s.faults.clear()
    s.journal.record({ time: '', method: 'GET', path: '/', query: {}, operation: null, status: 200, durationMs: 0 })
    s.reset()
    expect(s.summary()).toEqual({ name: 'x', pets: 1, faults: 1, requests: 0 })
    expect(s.store.create({ name: 'n', categoryId: 1 })).toMatchObject({ id: 2 })
  })

  it('deletes named sessions but not the default', () => {
    const sessions = new SessionRegistry(start, 3)
    sessions.get('a')
    expect(sessions.delete('a')).toBe(true)
    expect(sessions.delete('a')).toBe(false)
    expect(sessions.delete('default')).toBe(false)
  })
})
