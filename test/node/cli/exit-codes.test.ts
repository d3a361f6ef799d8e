import { describe, expect, it } from 'vitest'
import { SeedError } from '../../../src/core/pets/seed.js'
import { UsageError } from '../../../src/node/config/usage-errors.js'
import { exitCodes, failureOf } from '../../../src/node/cli/exit-codes.js'
import { DataFileError } from '../../../src/node/start/data-file-error.js'
import { StoreClientMissing } from '../../../src/node/store/open-store.js'

describe('failureOf', () => {
  it.each([
    [
      new UsageError('--port must be an integer'),
      exitCodes.usage,
      'petstore-mock: --port must be an integer\n\nUsage:',
    ],
    [new StoreClientMissing('--store redis://r/ needs the Redis client'), exitCodes.usage, 'needs the Redis client\n'],
    [new SeedError('pets.yaml: entry 2: name is required'), exitCodes.startFailed, 'petstore-mock: pets.yaml: entry 2'],
    [new DataFileError('faults.json: cannot read'), exitCodes.startFailed, 'petstore-mock: faults.json: cannot read\n'],
    [new Error('listen EADDRINUSE'), exitCodes.startFailed, 'petstore-mock: cannot start: listen EADDRINUSE\n'],
  ])('%s: exit %i, stderr starts %j', (error, code, stderr) => {
    const failure = failureOf(error)
    expect(failure.code).toBe(code)
    expect(failure.stderr.startsWith(stderr) || failure.stderr.endsWith(stderr)).toBe(true)
  })

  it('prints the usage only for a usage error', () => {
    expect(failureOf(new UsageError('x')).stderr).toContain('Usage: petstore-mock')
    expect(failureOf(new StoreClientMissing('x')).stderr).toBe('petstore-mock: x\n')
  })
})
