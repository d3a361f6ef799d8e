// Cold start: ms from spawning a server to its first 200 on GET /v1/pets with auth (polled every ms,
// at most 5 s a start). Every command starts in turn, RUNS times, so that a busy moment of the machine
// hits all of them alike. Prints {name: [ms, …]} as JSON, and {"name cpu": [ms, …]}: the CPU time its threads
// had used by then (Linux's /proc/PID/task/*/schedstat; none elsewhere), which a busy machine inflates far less. Plain JavaScript, Node built-ins only:
// npm run bench runs it on the host, and inside the image for its CMD.
//   node cold-start-probe.mjs RUNS '[{"name":"…","argv":["node","server.js"],"env":{…}}, …]' [FIRST_PORT]
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { request } from 'node:http'

const [runs, commandsJson, firstPort = '4900'] = process.argv.slice(2)
const commands = JSON.parse(commandsJson)

const getStatus = (port) =>
  new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/v1/pets', headers: { Authorization: 'Bearer bench-token' }, agent: false },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode))
      },
    )
    req.on('error', () => resolve(0))
    req.end()
  })

/** CPU time of every thread of a process, ms; undefined where /proc has none. */
const cpuMs = (pid) => {
  try {
    const tasks = readdirSync(`/proc/${pid}/task`)
    return (
      tasks.reduce(
        (sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]),
        0,
      ) / 1e6
    )
  } catch {
    return undefined
  }
}

const coldStartMs = async ({ argv, env }, port) => {
  const started = performance.now()
  const child = spawn(argv[0], [...argv.slice(1), '--port', String(port), '--log', 'silent'], {
    stdio: 'ignore',
    env: { ...process.env, ...env },
  })
  const exited = new Promise((done) => child.once('exit', done))
  try {
    while (performance.now() - started < 5000) {
      if ((await getStatus(port)) === 200) return { ms: performance.now() - started, cpu: cpuMs(child.pid) }
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    throw new Error(`${argv.join(' ')}: no 200 within 5 s`)
  } finally {
    // A second SIGTERM skips the drain a first one starts (issue 41: 5 s); the exit still writes the
    // compile cache, which the unmeasured first round fills.
    child.kill('SIGTERM')
    const again = setTimeout(() => child.kill('SIGTERM'), 50)
    await exited
    clearTimeout(again)
  }
}

const times = Object.fromEntries(commands.map((command) => [command.name, []]))
let port = Number(firstPort)
for (let run = 0; run < Number(runs); run++) {
  for (const command of commands) {
    const { ms, cpu } = await coldStartMs(command, port++)
    times[command.name].push(ms)
    if (cpu !== undefined) (times[`${command.name} cpu`] ??= []).push(cpu)
  }
}
process.stdout.write(`${JSON.stringify(times)}\n`)
