// `npm start` builds only when it must. The build (tsc, then the bundle) took 6.4 s of every start,
// sources changed or not. Its inputs are hashed into one fingerprint, which `npm run build` keeps in
// dist/.build-stamp once it succeeds:
//   node scripts/build-stamp.mjs           (prestart) builds unless the stamp matches the inputs
//   node scripts/build-stamp.mjs --write   (the end of `npm run build`) records the inputs just built
// Contents, not modification times: a checkout or a copy that changes no byte rebuilds nothing. The
// Node version is an input too: the bundle lists the built-in modules' exports of the Node that
// builds it. Run from the package root, as npm runs scripts. Plain JavaScript, built-ins only.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

/** What the build reads, relative to the package root: folders whole, files as they are. */
export const buildInputs = [
  'src',
  'openapi.yaml',
  'fixtures',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/bundle.mjs',
  'scripts/builtins-by-export.mjs',
  'scripts/prepare-routes.mjs',
  'scripts/eager-compile.mjs',
  'scripts/merge-start-chunks.mjs',
  'scripts/build-stamp.mjs',
]

/** Where the fingerprint of the last successful build is kept. */
export const stampFile = join('dist', '.build-stamp')

// What a start runs: without them there is nothing to start, whatever the stamp says.
const outputs = [join('dist', 'bin.js'), join('dist', 'index.js')]

// Every file of the inputs, by its path from `root` with forward slashes, sorted.
const inputFiles = (root) =>
  buildInputs
    .flatMap((path) => {
      const full = join(root, path)
      if (!existsSync(full)) return []
      if (!statSync(full).isDirectory()) return [path]
      return readdirSync(full, { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    })
    .sort()

/** The fingerprint of the build's inputs in `root`: every file's path and content, and the Node version. */
export const fingerprint = (root) => {
  const hash = createHash('sha256').update(`node ${process.version}\n`)
  for (const path of inputFiles(root)) {
    const content = readFileSync(join(root, path))
    hash.update(`${path}\n${content.length}\n`).update(content)
  }
  return hash.digest('hex')
}

/** Whether dist/ in `root` is missing, or was built from other inputs than those there now. */
export const isStale = (root) => {
  if (outputs.some((path) => !existsSync(join(root, path)))) return true
  const stamp = join(root, stampFile)
  return !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== fingerprint(root)
}

/** Records the inputs in `root` as built. */
export const writeStamp = (root) => {
  mkdirSync(join(root, 'dist'), { recursive: true })
  writeFileSync(join(root, stampFile), `${fingerprint(root)}\n`)
}

// npm's own entry point when an npm script runs this, else the npm on PATH.
const npmRun = (script) =>
  process.env.npm_execpath
    ? execFileSync(process.execPath, [process.env.npm_execpath, 'run', script], { stdio: 'inherit' })
    : execFileSync('npm', ['run', script], { stdio: 'inherit' })

const main = () => {
  const root = process.cwd()
  if (process.argv[2] === '--write') return writeStamp(root)
  if (!isStale(root)) {
    console.error('petstore-mock: dist/ is up to date with the sources, not rebuilt (npm run build forces it)')
    return
  }
  npmRun('build')
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main()
