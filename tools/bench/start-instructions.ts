// Instructions a start executes, counted by valgrind (cachegrind, no cache simulation: every thread's
// instructions, the same count run after run within about 1 %), for the bare server and `dist/bin.js`, each
// stopped at four points: Node booted, the code imported, listening, the first 200 of GET /v1/pets
// answered (a request from the same process, alike on both sides). A machine whose speed drifts moves
// wall-clock ratios by ±15 % within minutes; this count does not drift, so a start-up change can be
// weighed at the size of a millisecond. Needs valgrind (Debian's `valgrind`) and a build (`npm run
// build`); about 10 s a run, 8 runs. Run with vite-node: npm run bench:start-instructions
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const chunk = /import\("\.\/(chunks\/main-[A-Z0-9]+\.js)"\)/.exec(readFileSync(`${root}dist/bin.js`, 'utf8'))?.[1]
if (chunk === undefined) throw new Error('dist/bin.js imports no main chunk: run npm run build first')
if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.log('valgrind is not installed (apt-get install -y valgrind): nothing counted')
  process.exit(0)
}

const request = (port: number, auth: boolean) =>
  `await new Promise((r) => { const q = process.getBuiltinModule('node:http').request({ host: '127.0.0.1', port: ${port}, path: '/v1/pets', agent: false${auth ? ", headers: { Authorization: 'Bearer bench-token' }" : ''} }, (res) => { res.resume(); res.on('end', r) }); q.end() })`

// STAGE: 0 booted, 1 imported, 2 listening, 3 the first answer read. What bin.js does, stage by stage.
const ours = `process.getBuiltinModule('node:module').enableCompileCache?.()
const stage = Number(process.env.STAGE)
if (stage >= 1) {
  const { main } = await import(${JSON.stringify(`${root}dist/${chunk}`)})
  if (stage >= 2) await main(['--port', '4941', '--log', 'silent'], process.env)
  if (stage >= 3) ${request(4941, true)}
}
process.exit(0)`
// tools/bench/baseline-server.mjs, stage by stage.
const bare = `const stage = Number(process.env.STAGE)
if (stage >= 1) {
  const { createServer } = await import('node:http')
  const names = 'Biscuit Luna Max Cleo Nemo Pepper Rocky Mochi Kiwi Shadow Bella Sunny'.split(' ')
  const pets = names.map((name, i) => ({ id: i + 1, name, categoryId: (i % 5) + 1, status: 'available' }))
  if (stage >= 2) await new Promise((r) => createServer((req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(pets))).listen(4942, '127.0.0.1', r))
  if (stage >= 3) ${request(4942, false)}
}
process.exit(0)`

const count = (code: string, stage: number): number => {
  const out = spawnSync(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      '--input-type=module',
      '-e',
      code,
    ],
    { env: { ...process.env, STAGE: String(stage) }, encoding: 'utf8', timeout: 120_000 },
  )
  const refs = /I\s+refs:\s+([\d,]+)/.exec(out.stderr)?.[1]
  if (refs === undefined) throw new Error(`valgrind counted nothing (stage ${stage}):\n${out.stderr.slice(-2000)}`)
  return Number(refs.replaceAll(',', ''))
}

// The compile cache written before anything is counted: every counted start reads it, as npm start does.
execFileSync(process.execPath, ['--input-type=module', '-e', ours], {
  env: { ...process.env, STAGE: '3' },
  stdio: 'ignore',
})
const stages = ['Node booted', 'the code imported', 'listening', 'the first 200 read']
const millions = (n: number) => `${(n / 1e6).toFixed(1)} M`
let lastBare = 0
let lastOurs = 0
console.log(`Node ${process.version}; instructions (valgrind cachegrind), cumulative, then the step`)
for (const [stage, name] of stages.entries()) {
  const b = count(bare, stage)
  const o = count(ours, stage)
  console.log(
    `${name.padEnd(20)} bare ${millions(b).padStart(9)} (+${millions(b - lastBare)})   dist/bin.js ${millions(o).padStart(9)} (+${millions(o - lastOurs)})   ${(o / b).toFixed(2)}×`,
  )
  lastBare = b
  lastOurs = o
}
