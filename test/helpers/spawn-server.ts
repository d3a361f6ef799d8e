import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** The built CLI. */
export const binPath = fileURLToPath(new URL('../../dist/bin.js', import.meta.url))

/** A CLI process listening on a free loopback port. */
export interface SpawnedServer {
  child: ChildProcess
  url: string
  stdout: () => string
  stderr: () => string
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/**
 * Spawns `node dist/bin.js --port 0 …` with `PETSTORE_MOCK_DRAIN_SECONDS=0` unless `env` says
 * otherwise (undefined: the default drain) (`node`: the Node command line, this one's by default) and waits
 * for its banner (bounded against a hang, generous for a busy machine).
 */
export const spawnServer = (
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 30_000,
  node: string[] = [process.execPath],
  /** The CLI to run: this build's, or another release's (test/helpers/previous-release.ts). */
  bin: string = binPath,
): Promise<SpawnedServer> =>
  new Promise((resolve, reject) => {
    const [command = process.execPath, ...flags] = node
    const child = spawn(command, [...flags, bin, '--host', '127.0.0.1', '--port', '0', ...args], {
      // No drain by default: a stop signal then stops at once, as before the drain (hundreds of stops
      // in the suites); the drain's own tests (test/node/drain/) set it or leave it unset.
      env: { PATH: process.env['PATH'], PETSTORE_MOCK_DRAIN_SECONDS: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not start in ${timeoutMs} ms: ${err}`))
    }, timeoutMs)
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => {
      err += chunk
      const url = /listening on (http:\/\/\S+)/.exec(err)?.[1]
      if (!url) return
      clearTimeout(timer)
      resolve({
        child,
        url,
        stdout: () => out,
        stderr: () => err,
        stop: (signal = 'SIGTERM') => {
          child.kill(signal)
          return exited
        },
      })
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}: ${err}`))
    })
  })
