import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCommandLine } from '../../../src/node/cli/cli.js'
import { readStartData } from '../../../src/node/start/start-data.js'

const configOf = (argv: string[]) => {
  const command = parseCommandLine(argv, {}, { isTTY: false })
  if (command.run !== 'serve') throw new Error(command.run)
  return command.config
}
const dir = mkdtempSync(join(tmpdir(), 'petstore-start-data-'))
const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name))

describe('readStartData', () => {
  it.each([
    [[], 'fixtures/pets.yaml (bundled)', 12],
    [['--faker', '--count', '3', '--seed', '7'], 'faker (count 3, seed 7)', 3],
    [['--proxy', 'http://127.0.0.1:9'], 'none at start-up: --proxy records the pets the deployment answers', 0],
  ])('%j: pets from %s', async (argv, source, count) => {
    const data = await readStartData(configOf(argv))
    expect([data.source, data.pets.length]).toEqual([source, count])
    expect(data.spec.basePath).toBe('/v1')
    expect(data).not.toHaveProperty('faults')
  })

  it('reads a fixtures file and a faults file', async () => {
    const pets = file('pets.json', '[{"id":4,"name":"Rex","categoryId":1}]')
    const faults = file('faults.yaml', '- { operation: listPets, status: 503 }\n')
    const data = await readStartData(configOf(['--fixtures', pets, '--faults', faults]))
    expect(data).toMatchObject({ source: pets, pets: [{ id: 4, name: 'Rex' }], faults: [{ status: 503 }] })
  })

  it('refuses more pets than --max-pets', async () => {
    await expect(readStartData(configOf(['--faker', '--count', '5', '--max-pets', '4']))).rejects.toThrow(
      '5 seed pets exceed --max-pets 4; raise --max-pets',
    )
  })
})
