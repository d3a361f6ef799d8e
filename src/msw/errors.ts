/** An unusable option or control argument of petstore-mock/msw; the message names the option, entry and field. */
export class PetstoreMockError extends Error {
  override name = 'PetstoreMockError'

  constructor(message: string) {
    super(`petstore-mock/msw: ${message}`)
  }
}
