// CPU time per request of the bare server and of each build named in CPU_SERVERS, each a fresh process in turn
// (utime + stime from /proc after CPU_AMOUNT requests, 5,000 of warm-up, 50 connections), CPU_ROUNDS rounds, the
// median: less swayed by a loaded machine than req/s ratios. CPU_SERVERS=name=path/to/bin.js[=tenants.yaml],…
// (e.g. another commit's dist/bundle/bin.js); CPU_LOADS=a|b names loads of load.ts. Run with vite-node.
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parse } from 'yaml'
import { runLoad, standardLoads, type LoadClient } from './load.js'
import { baselinePath, nodeFlags, startServer } from './server-process.js'

const amount = Number(process.env['CPU_AMOUNT'] ?? 30000)
const rounds = Number(process.env['CPU_ROUNDS'] ?? 5)
const servers = (process.env['CPU_SERVERS'] ?? '').split(',').map((s) => {
  const [name, script, tenants] = s.split('=')
  return { name: name!, script: script!, tenants }
})
const tenantClient = (file: string): LoadClient => {
  const d = parse(readFileSync(file, 'utf8')) as { tenants: { apiKeys: string[]; sessions: string[] }[] }
  const t = d.tenants[0]!
  return { key: t.apiKeys[0]!, prefix: `/sessions/${t.sessions[0]!.replace('*', 'bench').replace(/[*?]/g, '')}` }
}
const ticks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(f[11]) + Number(f[12])
}
const names = (process.env['CPU_LOADS'] ?? 'GET /v1/pets?limit=20|GET /v1/pets/{id}|POST /v1/pets').split('|')
const all = [
  { name: 'bare', script: baselinePath, tenants: undefined as string | undefined, flags: [] as string[] },
  ...servers.map((s) => ({ ...s, flags: nodeFlags })),
]
const per: Record<string, number[]> = {}
const loads0: number[] = []
for (let r = 0; r < rounds; r++) {
  for (const name of names) {
    for (const s of all) {
      const proc = await startServer(
        s.script === baselinePath
          ? []
          : ['--log', 'silent', '--max-pets', '5000000', ...(s.tenants ? ['--tenants', s.tenants] : [])],
        30000,
        { script: s.script, flags: s.flags },
      )
      try {
        const load = standardLoads(5, s.tenants ? tenantClient(s.tenants) : undefined).find((l) => l.name === name)!
        await runLoad(proc.url, load, { amount: 5000 })
        const t0 = ticks(proc.child.pid!)
        const res = await runLoad(proc.url, load, { amount })
        const us = ((ticks(proc.child.pid!) - t0) * 10000) / res.total
        ;(per[`${s.name} ${name}`] ??= []).push(us)
        loads0.push(loadavg()[0]!)
        if (res.non2xx + res.errors) console.log(`!! ${s.name} ${name} bad ${res.non2xx + res.errors}`)
      } finally {
        await proc.stop()
      }
    }
  }
  console.log(`round ${r} done, load ${loadavg()[0]!.toFixed(2)}`)
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!
for (const name of names) {
  const bare = med(per[`bare ${name}`]!)
  for (const s of all) {
    const m = med(per[`${s.name} ${name}`]!)
    console.log(
      `${s.name.padEnd(8)} ${name.padEnd(24)} ${m.toFixed(1)} µs/req  bare/ours ${Math.round((100 * bare) / m)} %  [${per[`${s.name} ${name}`]!.map((x) => x.toFixed(1)).join(', ')}]`,
    )
  }
}
console.log(`load average during: ${Math.min(...loads0).toFixed(2)} to ${Math.max(...loads0).toFixed(2)}`)
