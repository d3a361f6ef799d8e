import { describe, expect, it } from 'vitest'
import { SeedError } from '../../../src/core/pets/seed.js'
import { UsageError } from '../../../src/node/config/usage-errors.js'
import { exitCodes, failureOf, helpPointer } from '../../../src/node/cli/exit-codes.js'
import { DataFileError } from '../../../src/node/start/data-file-error.js'
import { StoreClientMissing } from '../../../src/node/store/open-store.js'

describe('failureOf', () => {
  it.each([
    [
      new UsageError('--port must be an integer'),
      exitCodes.usage,
      'petstore-mock: --port must be an integer\nRun petstore-mock --help',
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

  it('a usage error: its message, its hint, where --help is; never the whole usage', () => {
    expect(failureOf(new UsageError('x')).stderr).toBe(`petstore-mock: x\n${helpPointer}\n`)
    expect(failureOf(new UsageError('x', 'did you mean --y?')).stderr).toBe(
      `petstore-mock: x\ndid you mean --y?\n${helpPointer}\n`,
    )
    expect(failureOf(new StoreClientMissing('x')).stderr).toBe('petstore-mock: x\n')
  })
})
