import type { Hono } from 'hono'
import { lazyMcpEndpoint } from './mcp/lazy-endpoint.js'
import { defaultApiKey } from './mcp/mcp-host.js'
import type { AppEnv } from '../core/app.js'
import { createApp } from '../core/app.js'
import { packageVersion as version } from '../generated/contract.js'
import { banner } from './cli/banner.js'
import { parseCommandLine, usage } from './cli/cli.js'
import type { Config } from './config/config.js'
import { exitCodes, failureOf } from './cli/exit-codes.js'
import type { FaultRuleInput } from '../core/faults/rule-check.js'
import { subcommandOf } from './cli/subcommands.js'
import { embeddedRouters } from './server/embedded-routers.js'
import { usePreparedRouter } from './server/prepared-router.js'
import { listen, type RunningServer } from './server/server.js'
import { type Stoppable, stopOnSignals } from './server/stop-on-signals.js'
import { Draining, pause } from './server/drain.js'
import { appOptionsFromConfig } from './start/app-options-from-config.js'
import type { Tenant } from '../core/tenants/tenant.js'
import { readStartData } from './start/start-data.js'
import type { StartState } from '../core/sessions/memory-store.js'
import { appOnStore } from './store/app-on-store.js'
import { openStore, type StoreFactory } from './store/open-store.js'
import { observeHost } from './observe/observe-host.js'
import { fleetOptions } from './store/redis/fleet-options.js'
import { adminTokenOptions } from './config/admin-tokens.js'
import { relaunchFlags } from './memory/heap-flags.js'
import { applyHeapGrowth } from './memory/heap-growth.js'
import { holdYoungGeneration } from './memory/young-generation.js'
import { type DerivedBudget, deriveBudget, memoryLimits } from './memory/memory-budget-option.js'
import { clampToRedis } from './memory/redis-clamp.js'

/** What a Config serves, not listening yet: the app, the seed's origin and size, and what ends its event streams. */
export interface ServerApp {
  app: Hono<AppEnv>
  source: string
  count: number
  /** The rules a --faults file installed (the banner names them). */
  faults?: FaultRuleInput[] | undefined
  stopping: AbortController
  /** Banner lines of what watches it (traces), and what flushes them when it stops (observe/). */
  observed: { banner: string[]; shutdown(): Promise<void> }
  /** The memory budget and where it comes from. */
  memory: DerivedBudget
  /** The tenants of --tenants (the banner names them). */
  tenants?: readonly Tenant[] | undefined
  /** Set by a stop signal: readiness then answers 503 (server/drain.ts). */
  draining: Draining
  /** The store --store opened, once the app is built on it (none: memory). */
  store: () => ReturnType<StoreFactory> | undefined
}

/**
 * Builds the app a Config serves (scripts/bundle.mjs prepares the router of the default one from
 * it); `env`'s OTEL_* variables turn traces on (none by default).
 */
export const serverApp = async (config: Config, env: NodeJS.ProcessEnv = {}): Promise<ServerApp> => {
  const data = await readStartData(config)
  const derived = deriveBudget(config.maxMemory, memoryLimits(process.execArgv, process.env['NODE_OPTIONS']))
  // Loaded only for a tenants file: reading it needs the YAML reader, which a default start never loads.
  const tenants =
    config.tenants === undefined
      ? undefined
      : (await import('./start/tenants-file.js')).readTenants(config, derived.mib)
  // Replicas on one Redis must agree on what changes an answer or a limit (store/redis/fleet-fingerprint.ts); a memory start digests nothing.
  const fleet =
    config.store === 'memory'
      ? undefined
      : {
          options: fleetOptions(config, data.pets, data.faults, tenants, {
            maxMemoryMiB: derived.mib,
            ...adminTokenOptions(config),
          }),
          reconfigure: config.reconfigure,
        }
  const opened = await openStore(config, fleet)
  // On Redis, no more budget than its maxmemory holds (issue 41 §2); the tenants' quotas checked again against it.
  const clamped = clampToRedis(derived, opened?.maxmemory)
  const memory = clamped.memory
  if (tenants !== undefined && memory !== derived) {
    const { readTenants } = await import('./start/tenants-file.js')
    try {
      readTenants(config, memory.mib)
    } catch (error) {
      // Its connection would keep a failed start alive.
      opened?.close?.()
      throw error
    }
  }
  const stopping = new AbortController()
  const base = { ...appOptionsFromConfig(config, data), maxMemory: memory.mib, ...(tenants && { tenants }) }
  const observed = await observeHost({ metrics: config.metrics, version, env, store: opened, proxy: base.proxy?.stats })
  observed.banner.push(...clamped.banner)
  // The banner's lines after the store's: what joining the fleet changed in Redis (store/redis/fleet-fingerprint.ts), then what watches it.
  observed.banner.unshift(...(opened?.fleetNotes ?? []))
  // Not ready once a stop signal came; else the store's check (Redis). In memory that replaces the
  // core's default, a read of this process's own store, which cannot fail.
  const draining = new Draining()
  observed.options.ready = draining.readiness(observed.options.ready)
  let made: ReturnType<StoreFactory> | undefined
  const store = observed.store && ((start: StartState, max: number) => (made = observed.store!(start, max)))
  // /__admin/mcp (issue 42): its module and the MCP SDK are loaded by the first request to it.
  const mcp = lazyMcpEndpoint({
    fetch: async (request) => app.fetch(request),
    apiKeyFor: defaultApiKey(config.apiKeys, tenants),
  })
  const options = { ...base, signal: stopping.signal, observe: observed.options, mcp }
  const app = store === undefined ? createApp(options) : await appOnStore(options, store)
  usePreparedRouter(app, embeddedRouters)
  const { source, pets, faults } = data
  return { app, source, count: pets.length, faults, stopping, observed, memory, tenants, draining, store: () => made }
}

/** Starts the server for a Config; resolves once it listens, with the banner to print. */
export const startServer = async (
  config: Config,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningServer & Stoppable & { banner: string }> => {
  const { app, source, count, faults, stopping, observed, memory, tenants, draining, store } = await serverApp(
    config,
    env,
  )
  let running: RunningServer
  try {
    running = await listen(app, { ...config, draining: draining.active })
  } catch (error) {
    // What the app holds open (a Redis store's connections) would keep a failed start alive.
    stopping.abort()
    await observed.shutdown()
    throw error
  }
  // Open event streams end first, so that their connections close with the idle ones; the traces
  // still pending are exported last.
  const close = (graceMs?: number) => (stopping.abort(), running.close(graceMs).then(observed.shutdown))
  // The drain (docs/scale-out.md#stopping-a-replica): not ready and every answer closing its
  // connection, still accepting, for --drain-seconds; then no new connections, the event streams and
  // journal waits end (nothing else ends them), every request in flight is answered, and only then is
  // the store closed, once it has what it is owed. On Redis the streams end without the store closing
  // (`stopping` would close it under the requests in flight); in memory closing ends them.
  const drain = async (signal: string) => {
    draining.begin(signal)
    await pause(config.drainSeconds * 1000)
    const made = store()
    if (made?.endStreams) made.endStreams()
    else stopping.abort()
    await running.close(Infinity)
    await made?.quit?.()
    stopping.abort()
    await observed.shutdown()
  }
  return {
    ...running,
    close,
    drain,
    abandon: () => running.server.closeAllConnections(),
    banner: banner(running.url, config, source, count, observed.banner, memory, faults, tenants),
  }
}

/**
 * Replaces this process, once, by the same command with the heap flags its memory budget needs
 * (memory/heap-flags.ts), when a bounded budget lacks them: same PID, stdio, signals and exit code
 * (`process.execve`, Node 22.15+ on POSIX; elsewhere the server runs on the heap it was given).
 */
const relaunchForBudget = (config: Config, argv: readonly string[], env: NodeJS.ProcessEnv): void => {
  const limits = memoryLimits(process.execArgv, env['NODE_OPTIONS'])
  const budget = deriveBudget(config.maxMemory, limits)
  const flags = relaunchFlags(budget.mib, budget.bounded, limits.flags)
  const script = process.argv[1]
  if (flags.length === 0 || typeof process.execve !== 'function' || process.platform === 'win32' || !script) return
  const strings = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...flags, script, ...argv], strings)
}

/** The command: its exit code (cli/exit-codes.ts), or undefined while it serves. */
export const main = async (argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number | undefined> => {
  const subcommand = subcommandOf(argv)
  if (subcommand) return subcommand(env)
  try {
    const command = parseCommandLine(argv, env)
    if (command.run === 'help') return (void process.stdout.write(usage()), exitCodes.ok)
    if (command.run === 'version') return (void process.stdout.write(`${version}\n`), exitCodes.ok)
    relaunchForBudget(command.config, argv, env)
    applyHeapGrowth(process.execArgv, env['NODE_OPTIONS'])
    holdYoungGeneration(process.execArgv, env['NODE_OPTIONS'])
    for (const note of command.notes) process.stderr.write(`${note}\n`)
    const running = await startServer(command.config, env)
    stopOnSignals(running, command.config.graceSeconds * 1000)
    // Printed only once signals are handled: whoever waits for it may stop the server at once.
    process.stderr.write(running.banner)
    return undefined
  } catch (error) {
    const failure = failureOf(error)
    process.stderr.write(failure.stderr)
    return failure.code
  }
}
