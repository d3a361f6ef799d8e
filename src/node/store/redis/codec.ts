import type { FaultRule, FaultRuleInput } from '../../../core/controls/faults.js'
import type { RandomState } from '../../../core/controls/random.js'
import type { RateLimitPolicy } from '../../../core/controls/rate-limit.js'
import type { NewPet, Pet } from '../../../core/state/pet.js'
import type { LatencyRange, World } from '../../../core/state/world.js'
import type { ClockSetting } from '../../../core/time/clock.js'
import { withJsonText } from '../../../core/http/known-json.js'

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

/**
 * Pets as sorted-set members: JSON texts (JSON.stringify's), ascending by id,
 * joined into one array parse. A page to be answered as it is (`answered`)
 * keeps its text for the answer (known-json.ts).
 */
export const parsePets = (members: readonly string[], answered = false): Pet[] => {
  if (members.length === 0) return []
  const text = `[${members.join(',')}]`
  const pets = JSON.parse(text) as Pet[]
  return answered ? withJsonText(pets, text) : pets
}

/** A pet from its member text, keeping the text for the answer; undefined for none. */
export const parsePet = (json: string | null): Pet | undefined =>
  json === null ? undefined : withJsonText(JSON.parse(json) as Pet, json)

/** What a rule is matched on, as the scripts read it: `operation\npetId\nprobability`, '' for absent. */
export const ruleMatch = (rule: FaultRuleInput): string =>
  `${rule.operation ?? ''}\n${rule.petId === undefined ? '' : String(rule.petId)}\n${rule.probability === undefined ? '' : String(rule.probability)}`

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

/** A world, its clock and rate limit as the scripts' writeWorld takes it (JSON, decoded by cjson). */
export const encodeWorld = (world: World, clock: ClockSetting, rateLimit: RateLimitPolicy | undefined): string => {
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
  const pets = world.pets.all().map((pet) => [String(pet.id), pet.status ?? '', JSON.stringify(pet)])
  const faults = world.faults.map(({ remaining, ...rule }) => [
    String(rule.id),
    JSON.stringify(rule),
    ruleMatch(rule),
    remaining === undefined ? '' : String(remaining),
  ])
  return JSON.stringify({ meta, pets, faults })
}
