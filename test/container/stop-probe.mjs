// Stopping under load, by the order of events (test-container.sh): against <base-url>, 20 clients keep
// kept-alive connections busy, one more connection sits idle, and one request is in flight (the server
// answered 100 Continue: it has it) with an answer delayed by 4.5 s (time for the engine to signal the
// container; within the 5 s the server then gives requests in flight). Prints "ready" once all that holds;
// the caller then stops the container. The server must close the busy and the idle connections while
// the request in flight still waits (not when its 5 s grace would force them), then answer it.
// Prints "ok …" or "FAIL …" a line (checks.mjs), bounded: a hang fails instead of stalling the suite.
import { Agent, request } from 'node:http'
import { check, finish } from './checks.mjs'

const [base] = process.argv.slice(2)
const headers = { Authorization: 'Bearer smoke-key' }
const bound = setTimeout(() => {
  check('stop under load: the probe ended', false, 'nothing happened for 60 s')
  finish()
}, 60_000)

/** GET `path` on `agent`; resolves with the status once the answer is read. */
const get = (agent, path, extra = {}) =>
  new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { agent, headers: { ...headers, ...extra } }, (res) => {
      res.resume()
      res.once('end', () => resolve(res.statusCode))
      res.once('error', reject)
    })
    req.once('error', reject)
    req.end()
  })

let answered = false
const pendingWhen = (promise) => promise.then(() => !answered)

// Busy: each client sends its next request as soon as the last is answered, until its connection fails.
let running = true
const busy = Array.from({ length: 20 }, async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  let served = 0
  try {
    while (running) {
      await get(agent, '/v1/pets')
      served++
    }
  } catch {}
  agent.destroy()
  return served
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
void inFlight.then(
  () => (answered = true),
  () => (answered = true),
)

await taken
console.log('ready')
const [busyEnded, idleEnded] = await Promise.all([pendingWhen(Promise.all(busy)), pendingWhen(idleClosed)])
const status = await inFlight.catch((error) => String(error))
running = false
const served = (await Promise.all(busy)).reduce((a, b) => a + b, 0)
check(
  `stop under load: the ${busy.length} busy connections (${served} requests served) closed while a request in flight still waited`,
  busyEnded,
)
check('stop under load: an idle kept-alive connection closed while that request still waited', idleEnded)
check('stop under load: the request in flight answered 200 (drained)', status === 200, `got ${status}`)
clearTimeout(bound)
finish()
