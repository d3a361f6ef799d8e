import type { Redis } from 'ioredis'
import * as registry from './scripts-registry.js'
import * as session from './scripts-session.js'
import * as controls from './scripts-controls.js'

const scripts = {
  psInit: registry.initScript,
  psSession: registry.sessionScript,
  psMeta: registry.metaScript,
  psDrop: registry.dropScript,
  psStats: registry.statsScript,
  psReset: registry.resetScript,
  psLoad: registry.loadScript,
  psContents: registry.contentsScript,
  psSummary: registry.summaryScript,
  psCreatePet: session.createPetScript,
  psReplacePets: session.replacePetsScript,
  psTakeFault: session.takeFaultScript,
  psAddFault: session.addFaultScript,
  psListFaults: session.listFaultsScript,
  psRemoveFault: session.removeFaultScript,
  psDrawLatency: session.drawLatencyScript,
  psHitRateLimit: controls.hitRateLimitScript,
  psSetRateLimit: controls.setRateLimitScript,
  psRateLimitState: controls.rateLimitStateScript,
  psNoteDeprecated: controls.noteDeprecatedScript,
  psRecord: controls.recordScript,
} as const

/** The name of one of the store's scripts. */
export type ScriptName = keyof typeof scripts

/** A reply as ioredis gives it: strings, integers, nil, and arrays of them. */
export type Reply = string | number | null | Reply[]

/** Runs one script by name, with its ARGV (no KEYS: see lua-common.ts). */
export type RunScript = (name: ScriptName, ...args: (string | number)[]) => Promise<Reply>

/**
 * Defines every script on `client` (ioredis `defineCommand`: EVALSHA, and
 * EVAL once when Redis does not know the script yet) and a typed caller.
 */
export const defineScripts = (client: Redis): RunScript => {
  for (const [name, lua] of Object.entries(scripts)) client.defineCommand(name, { numberOfKeys: 0, lua })
  const commands = client as unknown as Record<ScriptName, (...args: (string | number)[]) => Promise<Reply>>
  return (name, ...args) => commands[name](...args)
}
