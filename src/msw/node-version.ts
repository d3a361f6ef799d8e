import { PetstoreMockError } from './errors.js'

/** The oldest Node.js msw 3 runs on (its engines, and petstore-mock's). */
const needed = [22, 12] as const

/**
 * Throws a one-line PetstoreMockError when this runs in a Node.js older than msw 3 needs; nothing in a
 * browser (no process.versions.node) or on a newer Node. Without it, msw 3 on Node.js 20 loads, and
 * each intercepted request then fails deep in @mswjs/interceptors (`Promise.withResolvers is not a
 * function`), far from the cause. The error carries no stack frames: they would name only this file,
 * and the line is the whole message.
 */
export const checkNodeVersion = (version: string | undefined = nodeVersion()): void => {
  if (version === undefined) return
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number)
  if (major > needed[0] || (major === needed[0] && minor >= needed[1])) return
  const error = new PetstoreMockError(
    `needs Node.js ${needed.join('.')} or later, as msw 3 does (this is Node.js ${version.replace(/^v/, '')})`,
  )
  error.stack = `${error.name}: ${error.message}`
  throw error
}

const nodeVersion = (): string | undefined =>
  (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node
