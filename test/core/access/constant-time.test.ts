import { describe, expect, it } from 'vitest'
import { equalsAny } from '../../../src/core/access/constant-time.js'

describe('equalsAny', () => {
  it.each([
    ['the key', 'secret-key', ['secret-key'], true],
    ['one of several, first', 'k1', ['k1', 'k2', 'k3'], true],
    ['one of several, last', 'k3', ['k1', 'k2', 'k3'], true],
    ['no keys', 'k1', [], false],
    ['a prefix of the key', 'secret', ['secret-key'], false],
    ['the key and more', 'secret-key-2', ['secret-key'], false],
    ['the key repeated', 'abab', ['ab'], false],
    ['the last character differs', 'secret-kez', ['secret-key'], false],
    ['the first character differs', 'Secret-key', ['secret-key'], false],
    ['an empty guess', '', ['secret-key'], false],
    ['an empty key', 'x', [''], false],
    ['both empty', '', [''], true],
    ['non-ASCII', 'clé-ü', ['clé-ü'], true],
    ['a differing astral character', 'a😀', ['a😁'], false],
    ['characters 256 apart', '\u0161', ['\u0061'], false],
  ])('%s', (_, given, keys, expected) => {
    expect(equalsAny(given, keys)).toBe(expected)
  })

  it('compares every key, without stopping at a match', () => {
    const keys = ['k1', 'k2', 'k3', 'k4']
    const read: number[] = []
    const watched = new Proxy(keys, {
      get(target, property, receiver) {
        if (typeof property === 'string' && /^\d+$/.test(property)) read.push(Number(property))
        return Reflect.get(target, property, receiver)
      },
    })
    expect(equalsAny('k1', watched)).toBe(true)
    expect(read).toEqual([0, 1, 2, 3])
  })

  it('reads every character of the guess, whatever the key', () => {
    const reads = (given: string, key: string) => {
      let count = 0
      const watched = {
        length: given.length,
        charCodeAt: (i: number) => (count++, given.charCodeAt(i)),
      } as unknown as string
      equalsAny(watched, [key])
      return count
    }
    // A wrong first character, a wrong last one, a shorter and a longer key: the same work.
    expect(
      new Set([
        reads('secret-key', 'Xecret-key'),
        reads('secret-key', 'secret-keX'),
        reads('secret-key', 's'),
        reads('secret-key', 'secret-key-longer'),
      ]),
    ).toEqual(new Set([10]))
  })
})
