import { describe, expect, it } from 'vitest'
import { appDefaults, optionLimits, OptionError } from '../../src/core/app-options.js'
import { type AppOptions, createApp } from '../../src/core/app.js'
import { configDefaults } from '../../src/node/config/config.js'

describe('checkAppOptions (run by createApp; the hosts translate their inputs to it)', () => {
  it.each<[AppOptions, string]>([
    [{ maxPets: -1 }, 'maxPets must be an integer between 0 and 100000000 (got -1)'],
    [{ maxSessions: 0 }, 'maxSessions must be an integer between 1 and 100000 (got 0)'],
    [{ journalSize: 1.5 }, 'journalSize must be an integer between 0 and 1000000 (got 1.5)'],
    [{ bodyLimit: 0 }, 'bodyLimit must be an integer between 1 and 1073741824 (got 0)'],
    [{ seed: 2 ** 32 }, 'seed must be an integer between 0 and 4294967295 (got 4294967296)'],
    [{ apiKeys: 'k' as unknown as string[] }, 'apiKeys must be an array of strings'],
    [{ apiKeys: ['a', ''] }, 'apiKeys: entry 1 must be a non-empty string'],
    [{ adminToken: '' }, 'adminToken must be a non-empty string'],
    [{ delay: { min: 5, max: 1 } }, 'delay must be { min, max } milliseconds from 0 to 60000 with min ≤ max'],
    [{ rateLimit: { limit: 0, windowSeconds: 60 } }, 'rateLimit.limit must be an integer from 1'],
  ])('%j: an OptionError (a TypeError) naming the option', (options, message) => {
    expect(() => createApp(options)).toThrow(OptionError)
    expect(() => createApp(options)).toThrow(TypeError)
    expect(() => createApp(options)).toThrow(message)
  })

  it('accepts every bound', () => {
    for (const [name, { min, max }] of Object.entries(optionLimits)) {
      if (name === 'count') continue
      expect(() => createApp({ [name]: min })).not.toThrow()
      expect(() => createApp({ [name]: max })).not.toThrow()
    }
  })

  it('the Node host starts from the same defaults', () => {
    expect(configDefaults).toMatchObject(appDefaults)
  })
})
