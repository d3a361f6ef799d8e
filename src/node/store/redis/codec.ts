import type { BudgetPart, StorageRefusal } from '../../../core/budget/storage-refusal.js'
import type { RedisPool } from './tenant-pools.js'
import type { FaultRule, FaultRuleInput } from '../../../core/faults/rule-check.js'
import type { RandomState } from '../../../core/faults/random.js'
import type { RateLimitPolicy } from '../../../core/rate-limit/rate-limit.js'
import type { NewPet, Pet } from '../../../core/spec/pet.js'
import type { LatencyRange, World } from '../../../core/sessions/world.js'
import type { ClockSetting } from '../../../core/time/clock.js'
import type { JournalRecord, KeptBody } from '../../../core/journal/journal.js'
import { withJsonText } from '../../../core/http/known-json.js'
import { rulesCost } from '../../../core/budget/costs.js'
import { whenFacts } from '../../../core/faults/rule-match.js'

// A journal entry as stored and published: its JSON, then, when the answer had a body, a NUL and
// the body's text as it is. The text (a page of pets: most of an entry's bytes) is then neither
// escaped into a JSON string when recorded nor unescaped when read. JSON.stringify escapes every
// control character, so the first NUL is the separator.
const bodySeparator = '\u0000'

/**
 * A journal entry as psRecords (scripts/journal.lua) stores it after `{"id":N` (see
 * {@link decodeEntry}); `entry` itself is left as it is.
 */
export const encodeEntry = (entry: Omit<JournalRecord, 'id'>): string => {
  const body = entry.response?.body
  if (body === undefined) return entryAfterId(entry)
  const { text, ...rest } = body
  return `${entryAfterId({ ...entry, response: { ...entry.response!, body: rest } })}${bodySeparator}${text}`
}

// The journal stage's entries carry `id: 0` first (one shape for every entry: journal-listener.ts);
// the id is the script's to give, so that one is left out.
const entryAfterId = (entry: object): string => {
  if (!('id' in entry)) return afterId(entry)
  const json = JSON.stringify(entry)
  const comma = json.indexOf(',')
  return comma === -1 ? '}' : json.slice(comma)
}

/**
 * A stored journal entry, as recorded: as published (`{"id":N…`), or as kept in a session's list,
 * its cost and a comma in front (scripts/journal.lua; an entry kept before layout 4 has none).
 */
export const decodeEntry = (kept: string): JournalRecord => {
  const stored = kept.charCodeAt(0) === 123 ? kept : kept.slice(kept.indexOf(',') + 1)
  const at = stored.indexOf(bodySeparator)
  if (at === -1) return JSON.parse(stored) as JournalRecord
  const entry = JSON.parse(stored.slice(0, at)) as JournalRecord
  const rest = entry.response!.body as Omit<KeptBody, 'text'>
  entry.response!.body = { text: stored.slice(at + 1), ...rest }
  return entry
}

/** JSON of an object with its first brace cut, to follow `{"id":N` (the id is known only inside a script). */
export const afterId = (value: object): string => {
  const json = JSON.stringify(value)
  return json === '{}' ? '}' : `,${json.slice(1)}`
}

/** A new pet's JSON after `{"id":N,`, in the key order of toPet. */
export const petFields = (input: NewPet): string => {
  const pet: NewPet = { name: input.name, categoryId: input.categoryId }
  if (input.status !== undefined) pet.status = input.status
  return JSON.stringify(pet).slice(1)
}

/** Pets as sorted-set members: JSON texts, ascending by id, joined into one array parse. */
export const parsePets = (members: readonly string[]): Pet[] =>
  members.length === 0 ? [] : (JSON.parse(`[${members.join(',')}]`) as Pet[])

// A speed trick, contained here: the last text parsed, and its value. A value parsed from a text
// depends on that text only, so a reply equal to the last one gets the same objects (shared, as the
// memory store shares its last page: nothing changes what the port hands out). Under a load that
// reads one page or pet again, the parse and its garbage were a fifth of the replica's CPU
// (docs/internals/performance.md); comparing the texts costs a few bytes' compare.
const parsedOnce = <T extends object>(): ((text: string) => T) => {
  let lastText: string | undefined
  let lastValue: T
  return (text) => {
    if (text !== lastText) {
      lastValue = withJsonText(JSON.parse(text) as T, text)
      lastText = text
    }
    return lastValue
  }
}

const parsedPage = parsedOnce<Pet[]>()
const parsedPet = parsedOnce<Pet>()

/** A page as listPetsScript answers it (a JSON array text), keeping its text for the answer. */
export const parsePage = (text: string): Pet[] => (text === '[]' ? [] : parsedPage(text))

/** A pet from its member text, keeping the text for the answer; undefined for none. */
export const parsePet = (json: string | null): Pet | undefined => (json === null ? undefined : parsedPet(json))

/**
 * What a rule is matched on, as the scripts read it: `operation\npetId\nprobability`, '' for absent,
 * then, for a rule with `when`, a line per fact it requires (rule-match.ts: JSON texts, which hold no
 * line break).
 */
export const ruleMatch = (rule: FaultRuleInput): string => {
  const line = `${rule.operation ?? ''}\n${rule.petId === undefined ? '' : String(rule.petId)}\n${rule.probability === undefined ? '' : String(rule.probability)}`
  return rule.when === undefined ? line : `${line}\n${whenFacts(rule.when).join('\n')}`
}

/** A stored rule from its JSON and remaining count ('' for none): keys as in memory, `remaining` last. */
export const parseRule = (json: string, remaining: string): FaultRule => {
  const rule = JSON.parse(json) as FaultRule
  if (remaining !== '') rule.remaining = Number(remaining)
  return rule
}

/** A rate-limit policy as the meta hash keeps it: `limit,window`. */
export const encodePolicy = (policy: RateLimitPolicy | undefined): string =>
  policy ? `${policy.limit},${policy.windowSeconds}` : ''

export const decodePolicy = (text: string | null | undefined): RateLimitPolicy | undefined => {
  if (!text) return undefined
  const [limit, windowSeconds] = text.split(',').map(Number) as [number, number]
  return { limit, windowSeconds }
}

/** A clock setting as the meta hash keeps it: mode and value. */
export const encodeClock = (setting: ClockSetting): [string, string] =>
  setting.mode === 'frozen'
    ? ['frozen', String(setting.at)]
    : setting.mode === 'offset'
      ? ['offset', String(setting.offsetMs)]
      : ['real', '0']

export const decodeClock = (mode: string | null | undefined, value: string | null | undefined): ClockSetting =>
  mode === 'frozen'
    ? { mode: 'frozen', at: Number(value) }
    : mode === 'offset'
      ? { mode: 'offset', offsetMs: Number(value) }
      : { mode: 'real' }

export const decodeLatency = (min: string | null | undefined, max: string | null | undefined): LatencyRange | null =>
  min === null || min === undefined ? null : { min: Number(min), max: Number(max) }

export const decodeRandom = (text: string): RandomState => text.split(',').map(Number) as unknown as RandomState

/**
 * A world, its clock and rate limit as the scripts' writeWorld takes it (JSON, decoded by cjson);
 * `withPets` false: without its pets (a load whose pets are written in slices: scripts/staged.lua).
 */
export const encodeWorld = (
  world: World,
  clock: ClockSetting,
  rateLimit: RateLimitPolicy | undefined,
  withPets = true,
): string => {
  const [mode, value] = encodeClock(clock)
  const meta = [
    'seed',
    String(world.seed),
    'nextId',
    String(world.nextId),
    'nf',
    String(world.nextFaultId),
    'rnd',
    world.random.join(','),
    'cm',
    mode,
    'cv',
    value,
  ]
  if (world.latency) meta.push('lmin', String(world.latency.min), 'lmax', String(world.latency.max))
  if (rateLimit) meta.push('rl', encodePolicy(rateLimit))
  const pets = (withPets ? world.pets.all() : []).map((pet) => [String(pet.id), pet.status ?? '', JSON.stringify(pet)])
  const faults = world.faults.map(({ remaining, ...rule }) => [
    String(rule.id),
    JSON.stringify(rule),
    ruleMatch(rule),
    remaining === undefined ? '' : String(remaining),
    rule.name ?? '',
    rulesCost([rule]),
  ])
  return JSON.stringify({ meta, pets, faults })
}

/**
 * A refusal of the memory budget as the scripts answer it (scripts/budget.lua):
 * `!part,needed,free,pets,rules,sessions,deprecations,rateLimits`; undefined for any other reply.
 * With tenants, `pool` names whose share refused it: a tenant's (its `quota.memoryMiB`), or the
 * sessions of no tenant's (what the tenants reserved, `reservedBytes`, is told).
 */
export const refusalOf = (
  reply: unknown,
  budgetBytes: number,
  pool?: RedisPool,
  reservedBytes = 0,
): StorageRefusal | undefined => {
  if (typeof reply !== 'string' || !reply.startsWith('!')) return undefined
  const [part, ...figures] = reply.slice(1).split(',')
  const [needed, free, pets, rules, sessions, deprecations, rateLimits] = figures.map(Number) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const held: Partial<Record<BudgetPart, number>> = { pets, rules, sessions, deprecations, rateLimits }
  const parts = Object.keys(held) as BudgetPart[]
  const largest = parts.reduce((a, b) => ((held[b] ?? 0) > (held[a] ?? 0) ? b : a))
  const refusal: StorageRefusal = {
    refused: 'memory',
    part: part as BudgetPart,
    neededBytes: needed,
    freeBytes: free,
    budgetBytes,
    largest: { part: largest, bytes: held[largest] ?? 0 },
  }
  const tenant = pool?.tenant
  if (tenant !== undefined) {
    const quotaBytes = pool!.stateLimit
    refusal.budgetBytes = quotaBytes + Math.max(0, pool!.journalLimit)
    refusal.tenant = { name: tenant.name, quotaBytes, usedBytes: pets + rules + sessions + deprecations + rateLimits }
  } else if (reservedBytes > 0) {
    refusal.reservedBytes = reservedBytes
  }
  return refusal
}
