/** The Node.js running this, as `22.12.0`; undefined in a browser. */
export const runningNode = (): string | undefined =>
  (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node

/**
 * An Error naming the Node.js an entry point needs, when the Node.js running it (`version`,
 * `process.versions.node`; undefined in a browser, where nothing is checked) is older; undefined
 * otherwise. Its stack is its one line: frames would name only petstore-mock's own files, and the
 * line is the whole message. For the entries whose dependencies fail on an older Node with a stack
 * far from the cause (msw 3's interceptors, Testcontainers' HTTP client).
 */
export const nodeTooOld = (
  entry: string,
  needed: readonly [major: number, minor: number],
  why: string,
  version: string | undefined = runningNode(),
): Error | undefined => {
  if (version === undefined) return undefined
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number)
  if (major > needed[0] || (major === needed[0] && minor >= needed[1])) return undefined
  const error = new Error(
    `${entry}: needs Node.js ${needed.join('.')} or later, ${why} (this is Node.js ${version.replace(/^v/, '')})`,
  )
  error.stack = `${error.name}: ${error.message}`
  return error
}
