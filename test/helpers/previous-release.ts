import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The previous release (docs/reference/compatibility.md): the version and the commit it was cut
 * at. Built from the repository's own history (a fresh clone has it; tags are not relied on).
 */
export const previousRelease = { version: '0.2.0', commit: '1af3593' } as const

const root = fileURLToPath(new URL('../..', import.meta.url))

// The lock file without this package's own version: equal ones install the same dependencies.
const dependenciesOf = (lockText: string): string => {
  const lock = JSON.parse(lockText) as { version?: string; packages?: Record<string, { version?: string }> }
  delete lock.version
  if (lock.packages?.['']) delete lock.packages[''].version
  return JSON.stringify(lock)
}

/**
 * Builds a commit of this repository as its own `npm run build` does, into
 * <tmpdir>/petstore-mock-releases/<sha> (kept: a second run costs nothing), and answers
 * its CLI's path. The commit's files come from `git archive`; its dependencies are this checkout's
 * node_modules when both lock files name the same ones, else its own `npm ci`.
 */
export const buildRelease = (commit: string): string => {
  const sha = execFileSync('git', ['-C', root, 'rev-parse', '--verify', `${commit}^{commit}`], {
    encoding: 'utf8',
  }).trim()
  // Outside any node_modules: built below one, TypeScript names the commit's own hono types by a path through
  // the outer one and refuses to emit its declarations (TS2883, "not portable").
  const cache = join(tmpdir(), 'petstore-mock-releases')
  const dir = join(cache, sha)
  const bin = join(dir, 'dist', 'bin.js')
  if (existsSync(join(dir, '.built'))) return bin
  // Built where it is kept (what a build writes may name its directory); `.built` marks a whole one.
  const work = dir
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  try {
    execFileSync('sh', ['-c', `git -C "$1" archive --format=tar "$2" | tar -x -C "$3"`, 'sh', root, sha, work], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    const sameDependencies =
      dependenciesOf(readFileSync(join(work, 'package-lock.json'), 'utf8')) ===
      dependenciesOf(readFileSync(join(root, 'package-lock.json'), 'utf8'))
    const env = {
      ...process.env,
      PATH: [join(work, 'node_modules', '.bin'), dirname(process.execPath), process.env['PATH']].join(delimiter),
    }
    if (sameDependencies) symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir')
    else {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: work, env, stdio: 'pipe' })
    }
    const build = (JSON.parse(readFileSync(join(work, 'package.json'), 'utf8')) as { scripts: { build: string } })
      .scripts.build
    execFileSync('sh', ['-c', build], { cwd: work, env, stdio: 'pipe', timeout: 600_000 })
    writeFileSync(join(work, '.built'), `${sha}\n`)
  } catch (error) {
    rmSync(work, { recursive: true, force: true })
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? ''
    throw new Error(`building ${commit} failed: ${(error as Error).message}\n${output}`)
  }
  return bin
}
