import { maxDelayMs, maxFaultRules } from '../faults/rule-check.js'
import { snapshotFormat } from './snapshot.js'

// Apart from snapshot.ts: only \`npm run generate\` reads it (scripts/artefacts.ts precompiles it), and
// its calls are not pure to a bundler, which would keep it in every bundle that loads a snapshot.

const int = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum }) as const
const safeId = int(1, Number.MAX_SAFE_INTEGER)

/**
 * The JSON schema of a snapshot's shape (precompiled by `npm run generate`).
 * Pets are checked against the contract's `Pet` and rules by the rule
 * validator apart; only `format` and `pets` are required, the rest defaults.
 */
export const snapshotSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['format', 'pets'],
  properties: {
    format: { type: 'integer', enum: [snapshotFormat] },
    petstoreMock: { type: 'string' },
    seed: int(0, 2 ** 32 - 1),
    pets: { type: 'array' },
    nextId: safeId,
    faults: {
      type: 'array',
      maxItems: maxFaultRules,
      items: {
        type: 'object',
        required: ['id'],
        properties: { id: safeId, name: { type: 'string' }, remaining: safeId },
      },
    },
    nextFaultId: safeId,
    latency: {
      type: 'object',
      nullable: true,
      additionalProperties: false,
      required: ['min', 'max'],
      properties: { min: int(0, maxDelayMs), max: int(0, maxDelayMs) },
    },
    random: { type: 'array', items: int(-(2 ** 31), 2 ** 31 - 1) },
    clock: {
      type: 'object',
      nullable: true,
      additionalProperties: false,
      required: ['now'],
      properties: { now: { type: 'string' }, frozen: { type: 'boolean' } },
    },
    rateLimit: { type: 'string', nullable: true },
  },
} as const
