import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { bundlePath, nodeFlags } from './server-process.js'

const getStatus = (port: number): Promise<number> =>
  new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/v1/pets', headers: { Authorization: 'Bearer bench-token' }, agent: false },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', () => resolve(0))
    req.end()
  })

/** ms from spawning the bundle to its first 200 on GET /v1/pets (polled every ms, bounded at 5 s). */
export const coldStartMs = async (port: number): Promise<number> => {
  const started = performance.now()
  const child = spawn(process.execPath, [...nodeFlags, bundlePath, '--port', String(port), '--log', 'silent'], {
    stdio: 'ignore',
  })
  const exited = new Promise((done) => child.once('exit', done))
  try {
    while (performance.now() - started < 5000) {
      if ((await getStatus(port)) === 200) return performance.now() - started
      await new Promise((r) => setTimeout(r, 1))
    }
    throw new Error('no 200 within 5 s')
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

/** Median of `runs` cold starts. */
export const medianColdStartMs = async (
  runs: number,
  firstPort: number,
): Promise<{ median: number; all: number[] }> => {
  const all: number[] = []
  for (let i = 0; i < runs; i++) all.push(await coldStartMs(firstPort + i))
  const sorted = [...all].sort((a, b) => a - b)
  return { median: sorted[Math.floor(runs / 2)]!, all }
}
