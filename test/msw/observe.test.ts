import { setupServer } from 'msw/node'
import { describe, expect, it } from 'vitest'
import { createHandlers } from '../../src/msw/index.js'
import { auth } from '../helpers/contract.js'

describe("msw's observe option", () => {
  it("tells the observer of each /v1 answer, the listener loaded with the admin host (not at start: msw's budget)", async () => {
    const answered: [string | null, number, string][] = []
    const handlers = createHandlers({
      origins: ['http://petstore.test'],
      observe: { requests: { answered: (operation, status, source) => answered.push([operation, status, source]) } },
    })
    const server = setupServer(...handlers)
    server.listen({ onUnhandledFrame: 'error' })
    try {
      const found = await fetch('http://petstore.test/v1/pets/1', { headers: auth() })
      const missing = await fetch('http://petstore.test/v1/pets/999999', { headers: auth() })
      expect([found.status, missing.status]).toEqual([200, 404])
      expect(answered).toEqual([
        ['getPet', 200, 'contract'],
        ['getPet', 404, 'contract'],
      ])
    } finally {
      server.close()
    }
  })
})
