import { describe, expect, it, vi } from 'vitest'
import { subcommandOf } from '../../../src/node/cli/subcommands.js'

describe('subcommandOf', () => {
  it.each([[[]], [['--port', '0']], [['verifyx']], [['toString']], [['--verify']]])(
    '%j is the server’s own command line',
    (argv) => {
      expect(subcommandOf(argv)).toBeUndefined()
    },
  )

  it('runs verify on the words after its name', async () => {
    const run = subcommandOf(['verify', '--help'])
    expect(run).toBeTypeOf('function')
    // verify --help prints its usage on stdout and exits 0.
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    try {
      expect(await run!({})).toBe(0)
      expect(String(write.mock.calls[0]?.[0])).toContain('Usage: petstore-mock verify URL')
    } finally {
      write.mockRestore()
    }
  })
})
