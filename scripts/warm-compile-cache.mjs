// Image build: starts the server once with the image's command line, sends one request of each
// operation and stops it, so that V8's compile cache (NODE_COMPILE_CACHE) holds the code of a start
// and of the request path. Bounded: fails after 20 s.
//   node scripts/warm-compile-cache.mjs node --max-semi-space-size=4 dist/bin.js
import { spawn } from 'node:child_process'

const [command, ...args] = process.argv.slice(2)
const fail = (message) => {
  process.stderr.write(`warm-compile-cache: ${message}\n`)
  process.exit(1)
}
if (!command) fail('usage: warm-compile-cache.mjs COMMAND [ARGS...]')

// No drain: nothing routes to this server, and a SIGTERM would otherwise hold the build 5 s (issue 41).
const child = spawn(
  command,
  [...args, '--host', '127.0.0.1', '--port', '0', '--log', 'silent', '--drain-seconds', '0'],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
  },
)
const timer = setTimeout(() => {
  child.kill('SIGKILL')
  fail('the server did not start and answer within 20 s')
}, 20_000)
const exited = new Promise((resolve) => child.once('exit', resolve))
let stderr = ''
let stopping = false
const url = await new Promise((resolve) => {
  child.stderr.on('data', (chunk) => {
    stderr += chunk
    const found = /listening on (http:\/\/\S+)/.exec(stderr)
    if (found) resolve(found[1])
  })
  void exited.then((code) => stopping || fail(`the server exited with ${code}: ${stderr}`))
})

const headers = { Authorization: 'Bearer warm-up', 'Content-Type': 'application/json' }
const requests = [
  ['GET', '/v1/pets', 200],
  ['GET', '/v1/pets/1', 200],
  ['POST', '/v1/pets', 201, '{"name":"Warm","categoryId":1}'],
]
for (const [method, path, expected, body] of requests) {
  const res = await fetch(`${url}${path}`, { method, headers, body })
  if (res.status !== expected) fail(`${method} ${path} answered ${res.status}, not ${expected}`)
  await res.arrayBuffer()
}
// The cache is written when the server exits (0 after SIGTERM).
stopping = true
child.kill('SIGTERM')
const code = await exited
clearTimeout(timer)
if (code !== 0) fail(`the server exited with ${code}`)
