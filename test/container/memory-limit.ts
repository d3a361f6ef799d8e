// The image under the memory limit of deploy/kubernetes/ (issue 29), run by memory-limit.sh:
//   vite-node test/container/memory-limit.ts limit                      prints the manifest's limit, bytes
//   vite-node test/container/memory-limit.ts battery URL LIMIT_BYTES    the hostile battery against URL
// `battery` checks what the mock derived from the container's limit (health's budget), then runs the
// hostile battery of the test suite (test/helpers/hostile-battery.ts) while health is asked twice a
// second, and checks its answers: health 200 throughout, refusals 507 with the Error body, nothing else
// a 5xx, every 201 read back. Whether the container lived (not OOM-killed) is the engine's to say:
// memory-limit.sh inspects it afterwards. Prints "ok …"/"FAIL …" a check (checks.mjs); exits non-zero
// when one failed.
import { readFileSync } from 'node:fs'
import { parseAllDocuments } from 'yaml'
import { budgetForLimit } from '../../src/node/memory/heap-flags.js'
import { hostileBattery } from '../helpers/hostile-battery.js'
import { check, finish } from './checks.mjs'

const MiB = 2 ** 20
const units: Record<string, number> = { '': 1, Ki: 2 ** 10, Mi: MiB, Gi: 2 ** 30, K: 1e3, M: 1e6, G: 1e9 }

/** The petstore-mock container's memory limit in deploy/kubernetes/deployment.yaml, bytes. */
const manifestLimit = (): number => {
  const file = new URL('../../deploy/kubernetes/deployment.yaml', import.meta.url)
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    const manifest = doc.toJS() as {
      kind?: string
      spec?: { template?: { spec?: { containers?: { name: string; resources?: { limits?: { memory?: string } } }[] } } }
    }
    if (manifest.kind !== 'Deployment') continue
    const container = manifest.spec?.template?.spec?.containers?.find((c) => c.name === 'petstore-mock')
    const [, amount, unit] = /^([0-9]+)([KMG]i?)?$/.exec(container?.resources?.limits?.memory ?? '') ?? []
    if (amount !== undefined) return Number(amount) * units[unit ?? '']!
  }
  throw new Error('deploy/kubernetes/deployment.yaml: no memory limit on the petstore-mock container')
}

interface Health {
  memory: { budgetBytes: number | null; usedBytes: number }
}

const battery = async (url: string, limitBytes: number): Promise<void> => {
  // What the mock derived: the budget that fits the container's limit (src/node/memory/heap-flags.ts),
  // not Node's default heap nor a --max-memory.
  const health = (await (await fetch(`${url}/__admin/health`)).json()) as Health
  const expected = budgetForLimit(limitBytes) * MiB
  check(
    `the budget comes from the container's limit: ${(limitBytes / MiB).toFixed(0)} MiB → ${expected / MiB} MiB`,
    health.memory.budgetBytes === expected,
    JSON.stringify(health.memory),
  )

  // Health, asked twice a second while the battery runs: every answer, and the largest use it reported.
  const healthStatuses = new Map<string, number>()
  let peakUsed = 0
  let running = true
  const poll = (async () => {
    while (running) {
      let status: string
      try {
        const res = await fetch(`${url}/__admin/health`, { signal: AbortSignal.timeout(10_000) })
        status = String(res.status)
        if (res.status === 200) peakUsed = Math.max(peakUsed, ((await res.json()) as Health).memory.usedBytes)
        else await res.arrayBuffer()
      } catch (error) {
        status = `${(error as Error).name}: ${(error as Error).message}`
      }
      healthStatuses.set(status, (healthStatuses.get(status) ?? 0) + 1)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  })()
  const report = await hostileBattery(url)
    .catch((error: unknown) => {
      // A connection the server dropped (a container killed for memory, say): reported, not thrown.
      const cause = (error as Error & { cause?: Error }).cause
      check('the battery ran to its end', false, `${String(error)}${cause ? ` (${String(cause)})` : ''}`)
      return undefined
    })
    .finally(() => (running = false))
  await poll
  if (!report) return

  console.log(`     battery answers by status: ${JSON.stringify(report.statuses)}`)
  console.log(`     health while it ran: ${JSON.stringify(Object.fromEntries(healthStatuses))}`)
  console.log(`     largest use health reported: ${(peakUsed / MiB).toFixed(1)} of ${expected / MiB} MiB`)
  const polled = [...healthStatuses.values()].reduce((a, b) => a + b, 0)
  check(
    'health answered 200 throughout (polled twice a second, and between the phases)',
    polled > 0 && healthStatuses.get('200') === polled && report.health.every((s) => s === 200),
    JSON.stringify({ polled: Object.fromEntries(healthStatuses), between: report.health }),
  )
  check(
    "the control session's reads answered 200",
    report.control.every((s) => s === 200),
    JSON.stringify(report.control),
  )
  check(
    'the budget was reached: writes refused with 507 insufficient_storage, and writes answered 201',
    (report.statuses[507] ?? 0) > 0 && (report.statuses[201] ?? 0) > 0,
    JSON.stringify(report.statuses),
  )
  check(
    'every 5xx is a 507 with the Error body',
    report.badFailures.length === 0,
    report.badFailures.slice(0, 5).join('\n'),
  )
  check(
    `every 201 reads back (${report.created.length} pets)`,
    report.lost.length === 0,
    report.lost.slice(0, 5).join('\n'),
  )
}

const [command, url, limit] = process.argv.slice(2)
if (command === 'limit') console.log(manifestLimit())
else if (command === 'battery' && url && limit) {
  await battery(url, Number(limit))
  finish()
} else {
  console.error('usage: memory-limit.ts limit | battery URL LIMIT_BYTES')
  process.exit(2)
}
