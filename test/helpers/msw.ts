import type { UnhandledFrameHandle } from 'msw'
import { setupServer, type SetupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createHandlers, type HandlersOptions, type PetstoreHandlers } from '../../src/msw/index.js'
import { assertContract } from './contract.js'

/** The origin the msw tests call; nothing listens there, msw answers. */
export const mockOrigin = 'http://petstore.test'

/**
 * The mock's handlers in msw's setupServer for one test file: listening
 * before the tests, every session reset after each, closed after all.
 * `request` fetches through msw and checks the answer against the contract.
 */
export const useMswMock = (
  options: HandlersOptions = {},
  onUnhandledFrame: UnhandledFrameHandle = 'error',
): { handlers: PetstoreHandlers; server: SetupServer; request: typeof fetchChecked } => {
  const handlers = createHandlers({ origins: [mockOrigin], ...options })
  const server = setupServer(...handlers)
  beforeAll(() => server.listen({ onUnhandledFrame }))
  afterEach(() => handlers.reset())
  afterAll(() => server.close())
  return { handlers, server, request: fetchChecked }
}

/** fetch(mockOrigin + path), the answer checked against the contract (a network error rejects as fetch does). */
export const fetchChecked = async (path: string, init: RequestInit = {}): Promise<Response> => {
  const res = await fetch(`${mockOrigin}${path}`, init)
  await assertContract(init.method ?? 'GET', path, res)
  return res
}
