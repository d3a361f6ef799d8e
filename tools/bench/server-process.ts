import { type ChildProcess, spawn } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The production build the image runs (npm run bundle). */
export const bundlePath = fileURLToPath(new URL('../../dist/bundle/bin.js', import.meta.url))

/** What `npm start` and the package bin run (npm run build). */
export const binPath = fileURLToPath(new URL('../../dist/bin.js', import.meta.url))

/** The floor every figure is compared with: a bare node:http server answering the same JSON. */
export const baselinePath = fileURLToPath(new URL('./baseline-server.mjs', import.meta.url))

/** The node flags of the image's CMD, so that the bench runs what the container runs. */
export const nodeFlags: string[] = (() => {
  const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8')
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[]
  return cmd.slice(1, -1)
})()

/**
 * What the loads run: the image's CMD, or with BENCH_SERVER=bin `node dist/bin.js` (what `npm start`
 * and `npx petstore-mock` run: no flags, its young generation held by the bin itself).
 */
export const defaultServer: { script: string; flags: string[] } =
  process.env['BENCH_SERVER'] === 'bin' ? { script: binPath, flags: [] } : { script: bundlePath, flags: nodeFlags }

/** A server started as its own process on a free loopback port. */
export interface ServerProcess {
  url: string
  child: ChildProcess
  /** ms from spawn to the banner (listening, seed data loaded). */
  startMs: number
  rssMiB(): number
  stop(): Promise<void>
}

/** Resident set size of a process, MiB (Linux). */
export const rssMiB = (pid: number): number => {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  return Number(kb) / 1024
}

/**
 * Spawns the bundle as the image's CMD runs it (or {@link defaultServer}, or `script` with `flags`) with
 * `args` on port 0; stdout (the request log) goes to /dev/null, as a user would
 * run it. Resolves once the banner is printed.
 */
export const startServer = (
  args: string[],
  timeoutMs = 30_000,
  { script = defaultServer.script, flags = defaultServer.flags }: { script?: string; flags?: string[] } = {},
): Promise<ServerProcess> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [...flags, script, '--host', '127.0.0.1', '--port', '0', ...args], {
      stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
    })
    let err = ''
    let listening = false
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`no banner in ${timeoutMs} ms: ${err}`))
    }, timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}: ${err}`))
    })
    child.stderr!.on('data', (chunk) => {
      // Read to the end (a full pipe would block the server), but answered once: later lines (the drain's,
      // on SIGTERM) must not replace the exit listener that stop() waits on.
      if (listening) return
      err += chunk
      const url = /listening on (http:\/\/\S+)/.exec(err)?.[1]
      if (!url) return
      listening = true
      clearTimeout(timer)
      child.removeAllListeners('exit')
      const exited = new Promise<void>((done) => child.once('exit', () => done()))
      resolve({
        url,
        child,
        startMs: performance.now() - started,
        rssMiB: () => rssMiB(child.pid!),
        // Every figure is taken by then: SIGKILL, not the 5 s drain a SIGTERM starts (issue 41).
        stop: () => {
          child.kill('SIGKILL')
          return exited
        },
      })
    })
  })
