import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port.js'

/** Debian's redis-server. */
export const redisServerPath = process.env['REDIS_SERVER'] ?? '/usr/bin/redis-server'

/** Installs Debian's redis-server when it is missing (as .ci/run installs Chromium). */
export const ensureRedisServer = (): void => {
  if (existsSync(redisServerPath)) return
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], { stdio: 'ignore' })
}

/** A redis-server of a test's own: loopback, its own directory, append-only file on. */
export interface RedisServer {
  url: string
  port: number
  dir: string
  child: ChildProcess
  /** Stops it by its PID (SIGTERM: it saves; SIGKILL: it does not) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>
  /** Starts it again on the same port and directory (what it saved comes back). */
  restart(): Promise<void>
  /** Stops it and removes its directory. */
  dispose(): Promise<void>
}

const launch = (port: number, dir: string, timeoutMs: number, extra: readonly string[] = []): Promise<ChildProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      redisServerPath,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--save',
        '',
        '--daemonize',
        'no',
        '--protected-mode',
        'yes',
        '--logfile',
        '',
        '--loglevel',
        'notice',
        ...extra,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`redis-server did not start in ${timeoutMs} ms: ${out}`))
    }, timeoutMs)
    child.stdout!.on('data', (chunk) => {
      out += chunk
      if (!/Ready to accept connections/.test(out)) return
      clearTimeout(timer)
      child.stdout!.removeAllListeners('data')
      child.stdout!.resume()
      resolve(child)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited with ${code}: ${out}`))
    })
  })

const exitOf = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()))

/**
 * Starts a redis-server on a free loopback port in a fresh temporary directory (bounded: 10 s a try,
 * 3 tries); `extra`: more of its options (`--requirepass …`, TLS), after the defaults.
 */
export const startRedis = async (timeoutMs = 10_000, extra: readonly string[] = []): Promise<RedisServer> => {
  ensureRedisServer()
  const dir = mkdtempSync(join(tmpdir(), 'petstore-redis-'))
  let lastError: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort()
    try {
      let child = await launch(port, dir, timeoutMs, extra)
      const server: RedisServer = {
        url: `redis://127.0.0.1:${port}`,
        port,
        dir,
        get child() {
          return child
        },
        stop: async (signal = 'SIGTERM') => {
          const exited = exitOf(child)
          child.kill(signal)
          await exited
        },
        restart: async () => {
          await server.stop()
          child = await launch(port, dir, timeoutMs, extra)
        },
        dispose: async () => {
          await server.stop('SIGKILL')
          rmSync(dir, { recursive: true, force: true })
        },
      }
      return server
    } catch (error) {
      lastError = error
    }
  }
  rmSync(dir, { recursive: true, force: true })
  throw lastError
}
