import { execFileSync, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

/** A file of a recipe page: a fenced block whose info string names it. */
export interface RecipeFile {
  path: string
  lang: string
  text: string
}

// The convention of docs/recipes (see its README.md): a fence at the start of a line, its info string
// the language then title="path"; the block's lines are the file, exactly. Blocks without a title
// (shell commands, output) are not files.
const fence = /^(`{3,})(\S*)(.*)$/
const titled = /\btitle="([^"]+)"/

/** The files a recipe page shows, in order; a path shown twice is an error (which one is the file?). */
export const recipeFiles = (page: string): RecipeFile[] => {
  const lines = readFileSync(join(repoRoot, page), 'utf8').split('\n')
  const files: RecipeFile[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i]!)
    if (!open) continue
    const end = lines.findIndex((line, j) => j > i && line.trimEnd() === open[1])
    if (end === -1) throw new Error(`${page}:${i + 1}: the fence is never closed`)
    const path = titled.exec(open[3]!)?.[1]
    if (path !== undefined) {
      if (files.some((file) => file.path === path)) throw new Error(`${page}:${i + 1}: ${path} is shown twice`)
      files.push({ path, lang: open[2]!, text: `${lines.slice(i + 1, end).join('\n')}\n` })
    }
    i = end
  }
  return files
}

/** The commands of a page's `sh` blocks, one a line (comments and blank lines left out). */
export const recipeCommands = (page: string): string[] => {
  const text = readFileSync(join(repoRoot, page), 'utf8')
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap(([, body]) =>
    body!
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  )
}

let packed: { dir: string; path: string } | undefined

/**
 * The package as `npm pack` makes it, unpacked once per test file into a temporary directory (remove
 * it with {@link removePackedPackage}): what `npm install ./petstore-mock-<version>.tgz` puts in
 * node_modules. Packs the dist/ the suite's global setup built (--ignore-scripts: no second build).
 */
export const packedPackage = (): string => {
  if (packed) return packed.path
  const dir = mkdtempSync(join(tmpdir(), 'petstore-mock-pack-'))
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const [{ filename }] = JSON.parse(out) as [{ filename: string }]
  execFileSync('tar', ['-xzf', join(dir, filename), '-C', dir])
  packed = { dir, path: join(dir, 'package') }
  return packed.path
}

/** Removes what {@link packedPackage} made (call it in afterAll). */
export const removePackedPackage = (): void => {
  if (packed) rmSync(packed.dir, { recursive: true, force: true })
  packed = undefined
}

/** A temporary project: the page's files, and node_modules as an install of the tarball would make it. */
export interface RecipeProject {
  dir: string
  /** Writes (or overwrites) a file of the project. */
  write(path: string, text: string): void
  read(path: string): string
  remove(): void
}

/** The repository's version of an installed package, as `npm install <name>` would record it: ^version. */
const installedRange = (name: string): string => {
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as {
    version: string
  }
  return `^${version}`
}

/**
 * What `npm install [--save-dev] <names…>` writes into the project's package.json, each name at the
 * version of the repository's node_modules (which the project links: no registry), sorted as npm sorts.
 */
const recordInstall = (dir: string, command: string): void => {
  const args = command.split(/\s+/).slice(2)
  const dev = args.some((arg) => arg === '--save-dev' || arg === '-D')
  const specs = args.filter((arg) => !arg.startsWith('-'))
  const file = join(dir, 'package.json')
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  const field = dev ? 'devDependencies' : 'dependencies'
  const deps = { ...(manifest[field] as Record<string, string> | undefined) }
  for (const spec of specs) {
    // A tarball (petstore-mock, as Install says): recorded as file:, under the name its file tells.
    const tarball = /(?:^|\/)([a-z0-9-]+)-\d+\.\d+\.\d+\.tgz$/.exec(spec)
    if (tarball) deps[tarball[1]!] = `file:${spec}`
    else deps[spec.replace(/(?<=.)@[^@/]*$/, '')] = installedRange(spec.replace(/(?<=.)@[^@/]*$/, ''))
  }
  manifest[field] = Object.fromEntries(Object.entries(deps).sort(([a], [b]) => a.localeCompare(b, 'en')))
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
}

/**
 * Makes the project the way `page` says, in the empty directory `dir`: its `npm init` and `npm pkg`
 * commands run as typed (npm itself; neither needs the registry), and each `npm install` is recorded
 * in package.json as npm would (the packages themselves are linked by {@link recipeProject}).
 * petstore-mock is installed as [Install](../../docs/install.md) says: from its tarball, a dev dependency.
 */
const makeProject = (page: string, dir: string): void => {
  const commands = recipeCommands(page)
  for (const command of commands) {
    // Before anything else is in the directory: `npm init -y` lists node_modules' packages as dependencies.
    if (/^npm (init|pkg) /.test(command)) {
      execFileSync('npm', command.split(/\s+/).slice(1), {
        cwd: dir,
        env: userEnv(),
        stdio: ['ignore', 'ignore', 'pipe'],
      })
    }
  }
  if (!existsSync(join(dir, 'package.json'))) throw new Error(`${page}: its commands make no package.json`)
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }
  recordInstall(dir, ['npm install --save-dev', `../petstore-mock/petstore-mock-${version}.tgz`].join(' '))
  for (const command of commands) if (/^npm install /.test(command)) recordInstall(dir, command)
}

/**
 * Writes the files of `page` (and `extra`, for what the test adds, such as a tsconfig for its type
 * check) into a new temporary project, made as the page says (see makeProject), whose node_modules
 * holds the packed petstore-mock and, linked, every other package of the repository's node_modules
 * (the versions of its lock file: no registry needed).
 */
export const recipeProject = (page: string, extra: Record<string, string> = {}): RecipeProject => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-mock-recipe-'))
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  makeProject(page, dir)
  for (const [path, text] of Object.entries(extra)) write(path, text)
  for (const file of recipeFiles(page)) write(file.path, file.text)
  const modules = join(dir, 'node_modules')
  mkdirSync(modules)
  const source = join(repoRoot, 'node_modules')
  for (const name of readdirSync(source)) {
    if (name.startsWith('.')) continue
    if (name.startsWith('@')) {
      mkdirSync(join(modules, name))
      for (const scoped of readdirSync(join(source, name))) {
        symlinkSync(join(source, name, scoped), join(modules, name, scoped), 'dir')
      }
    } else symlinkSync(join(source, name), join(modules, name), 'dir')
  }
  // A copy, not a link: its own imports (hono, ajv, …) resolve from where it lies, as after an install.
  cpSync(packedPackage(), join(modules, 'petstore-mock'), { recursive: true })
  return {
    dir,
    write,
    read: (path) => readFileSync(join(dir, path), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/**
 * The environment of a command a user types: this one, less what the test runner sets (vitest sets
 * NODE_ENV=test, which would make `vite build` a development build).
 */
export const userEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1' }
  for (const [name, value] of Object.entries(process.env)) {
    if (name !== 'NODE_ENV' && name !== 'TEST' && !name.startsWith('VITEST')) env[name] = value
  }
  return { ...env, ...extra }
}

/** What a command printed, and how it exited. */
export interface Ran {
  code: number | null
  output: string
}

/**
 * The Node.js that runs what a recipe's user types (msw init, vite, storybook): this one, or
 * $PETSTORE_MOCK_RECIPE_NODE, with which .ci/run checks the recipes' "Needs" lines on the machine's
 * Node 20 and on Node 22. The test's own tools (tsc, vitest) stay on this one.
 */
export const userNode: string = process.env['PETSTORE_MOCK_RECIPE_NODE'] || process.execPath

/** The version of {@link userNode}, as `v20.20.2`. */
export const userNodeVersion = (): string =>
  userNode === process.execPath
    ? process.version
    : execFileSync(userNode, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim()

/** Runs `node <repo's node_modules>/<script> …args` in `cwd` (bounded: killed after `timeoutMs`), on `node`. */
export const runNode = (
  cwd: string,
  args: string[],
  timeoutMs = 120_000,
  env: NodeJS.ProcessEnv = {},
  node: string = process.execPath,
): Promise<Ran> =>
  new Promise((resolve) => {
    const child = spawn(node, args, {
      cwd,
      env: userEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })

/** The repository's copy of a tool's entry point: vitest, tsc, vite. */
export const tool = {
  vitest: join(repoRoot, 'node_modules/vitest/vitest.mjs'),
  tsc: join(repoRoot, 'node_modules/typescript/bin/tsc'),
  vite: join(repoRoot, 'node_modules/vite/bin/vite.js'),
  msw: join(repoRoot, 'node_modules/msw/cli/index.js'),
}

/** A process started by {@link startProcess}. */
export interface Started {
  /** The first match of the pattern waited for. */
  match: RegExpExecArray
  output(): string
  /** Sends SIGTERM (SIGKILL after 30 s: beyond the server's drain and 25 s grace) and resolves with the exit code. */
  stop(): Promise<number | null>
}

/**
 * Spawns `command args` in `cwd` and resolves once its output matches `ready` (rejects if it exits
 * first or after `timeoutMs`, killing it). Stop it with `stop()`.
 */
export const startProcess = (
  cwd: string,
  command: string,
  args: string[],
  ready: RegExp,
  { env = {}, timeoutMs = 60_000 }: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Started> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: userEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${command} ${args.join(' ')}: no ${ready} within ${timeoutMs} ms: ${output}`))
    }, timeoutMs)
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
      child.kill('SIGTERM')
      const kill = setTimeout(() => child.kill('SIGKILL'), 30_000)
      const code = await exited
      clearTimeout(kill)
      return code
    }
    const onData = (chunk: Buffer) => {
      output += chunk
      const match = ready.exec(output)
      if (!match) return
      clearTimeout(timer)
      child.stdout.off('data', onData)
      child.stderr.off('data', onData)
      child.stdout.on('data', (more) => (output += more))
      child.stderr.on('data', (more) => (output += more))
      resolve({ match, output: () => output, stop })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${command} ${args.join(' ')} exited with ${code} before ${ready}: ${output}`))
    })
  })

/** The Node.js a recipe page's "**Needs**" line names (`Node.js 22.12 or later`), as [major, minor]; undefined when it names none. */
export const neededNode = (page: string): [number, number] | undefined => {
  const match = /^\*\*Needs\*\* Node\.js (\d+)\.(\d+) or later/m.exec(readFileSync(join(repoRoot, page), 'utf8'))
  return match ? [Number(match[1]), Number(match[2])] : undefined
}

/** Whether a Node.js version (`v20.20.2`) is at least what `page` says it needs. */
export const meetsNeeds = (page: string, version: string): boolean => {
  const needed = neededNode(page)
  if (!needed) throw new Error(`${page}: its **Needs** line names no Node.js version`)
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number)
  return major > needed[0] || (major === needed[0] && minor >= needed[1])
}
