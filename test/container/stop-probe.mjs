// Stopping under load, by the order of events (test-container.sh), with the drain of issue 41: against
// <base-url>, 20 clients keep kept-alive connections busy, one more connection sits idle, and one request
// is in flight (the server answered 100 Continue: it has it) with an answer delayed by 4.5 s. Prints
// "ready" once all that holds; the caller then stops the container (SIGTERM). The server must go on
// serving while it drains (`--drain-seconds`, 5 by default): every answer 200, those after the signal
// with `Connection: close`, so that a client's pool moves elsewhere. It then stops accepting (the busy
// clients' next connection fails: nothing else is left to send them to here), closes the idle
// connection, answers the request in flight, and exits 0 (the caller's check).
// Prints "ok …" or "FAIL …" a line (checks.mjs), bounded: a hang fails instead of stalling the suite.
import { Agent, request } from 'node:http'
import { check, finish } from './checks.mjs'

const [base] = process.argv.slice(2)
const headers = { Authorization: 'Bearer smoke-key' }
const bound = setTimeout(() => {
  check('stop under load: the probe ended', false, 'nothing happened for 60 s')
  finish()
}, 60_000)

/** GET `path` on `agent`; resolves with the status and Connection header once the answer is read. */
const get = (agent, path, extra = {}) =>
  new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { agent, headers: { ...headers, ...extra } }, (res) => {
      res.resume()
      res.once('end', () => resolve({ status: res.statusCode, connection: res.headers['connection'] }))
      res.once('error', reject)
    })
    req.once('error', reject)
    req.end()
  })

// Busy: each client sends its next request as soon as the last is answered, until a connection fails
// (the listener closed once the drain ended). Each answer's status and whether it closed its connection.
const answers = []
const busy = Array.from({ length: 20 }, async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    for (;;) answers.push(await get(agent, '/v1/pets'))
  } catch {}
  agent.destroy()
})
// Idle: one request answered, its connection kept.
const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 })
const idleClosed = new Promise((resolve, reject) => {
  const req = request(new URL('/__admin/health', base), { agent: idleAgent }, (res) => res.resume())
  req.once('socket', (socket) => socket.once('close', resolve))
  req.once('error', reject)
  req.end()
})
// In flight: taken by the server (100 Continue), answered 4.5 s later.
let taken
const inFlight = new Promise((resolve, reject) => {
  const req = request(new URL('/v1/pets?__delay=4500', base), {
    agent: false,
    headers: { ...headers, Expect: '100-continue' },
  })
  taken = new Promise((took) => req.once('continue', took))
  req.once('response', (res) => {
    res.resume()
    res.once('end', () => resolve(res.statusCode))
  })
  req.once('error', reject)
  req.end()
})

await taken
console.log('ready')
const status = await inFlight.catch((error) => String(error))
await Promise.all(busy)
await idleClosed
const failed = answers.filter((a) => a.status !== 200)
const closing = answers.filter((a) => a.connection === 'close')
check(
  `stop under load: the ${answers.length} answers to the 20 busy connections are all 200, the server serving on while it drained`,
  failed.length === 0 && answers.length > 0,
  `${failed.length} not 200: ${[...new Set(failed.map((a) => a.status))].join(', ')}`,
)
check(
  'stop under load: answers after the signal said Connection: close (a pool then moves elsewhere)',
  closing.length > 0 && closing.every((a) => a.status === 200),
  `${closing.length} of ${answers.length}`,
)
check('stop under load: the idle kept-alive connection was closed by the server', true)
check('stop under load: the request in flight answered 200 (drained)', status === 200, `got ${status}`)
clearTimeout(bound)
finish()
