import { spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { supportsNode } from '../../scripts/node-runtime.mjs'

/** A Node.js command line older than the package's engines (< 22.12), and what it is. */
export interface OldNode {
  argv: string[]
  label: string
  /** False when no old Node was found and the current one stands in for it (see findOldNode). */
  real: boolean
}

const versionOf = (path: string): string | undefined => {
  try {
    accessSync(path, constants.X_OK)
  } catch {
    return undefined
  }
  const result = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 })
  return result.status === 0 ? result.stdout.trim() : undefined
}

/** The current Node without module.enableCompileCache, as on Node 20 (it came in 22.1). */
export const withoutCompileCache: string[] = [
  process.execPath,
  '--import',
  `data:text/javascript,${encodeURIComponent("delete process.getBuiltinModule('node:module').enableCompileCache")}`,
]

/**
 * An old Node to run the built bin on: $PETSTORE_MOCK_OLD_NODE, else the first `node` on PATH (or
 * /usr/bin, /usr/local/bin) older than 22.12 (npm scripts put the project's own Node first: the
 * machine's comes later). None found: in CI (CI set) that is an error, since CI machines have one;
 * on a developer's machine the current Node without the compile cache stands in, what the bin
 * detects on Node 20, so that `npm test` passes where Node 20 was never installed.
 */
export const findOldNode = (env: NodeJS.ProcessEnv = process.env): OldNode => {
  const named = env['PETSTORE_MOCK_OLD_NODE']
  if (named) {
    const version = versionOf(named)
    if (!version || supportsNode(version)) throw new Error(`PETSTORE_MOCK_OLD_NODE=${named} is not a Node < 22.12`)
    return { argv: [named], label: `Node.js ${version} (${named})`, real: true }
  }
  const dirs = [...(env['PATH'] ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'].filter((d) => d !== '')
  for (const path of new Set(dirs.map((dir) => join(dir, 'node')))) {
    const version = versionOf(path)
    if (version && !supportsNode(version)) return { argv: [path], label: `Node.js ${version} (${path})`, real: true }
  }
  if (env['CI']) throw new Error('CI: no Node.js older than 22.12 on PATH; set PETSTORE_MOCK_OLD_NODE to one')
  return { argv: withoutCompileCache, label: `Node.js ${process.versions.node} without the compile cache`, real: false }
}
