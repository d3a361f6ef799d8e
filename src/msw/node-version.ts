import { nodeTooOld, runningNode } from '../core/node-version.js'
import { PetstoreMockError } from './errors.js'

/**
 * Throws a one-line PetstoreMockError when this runs in a Node.js older than msw 3 needs (22.12, its
 * engines); nothing in a browser or on a newer Node. Without it, msw 3 on Node.js 20 loads, and each
 * intercepted request then fails deep in @mswjs/interceptors (`Promise.withResolvers is not a
 * function`), far from the cause.
 */
export const checkNodeVersion = (version: string | undefined = runningNode()): void => {
  const tooOld = nodeTooOld('petstore-mock/msw', [22, 12], 'as msw 3 does', version)
  if (tooOld === undefined) return
  const error = new PetstoreMockError(tooOld.message.replace(/^petstore-mock\/msw: /, ''))
  error.stack = `${error.name}: ${error.message}`
  throw error
}
