import { ReplyError } from 'ioredis'

/**
 * Whether Redis refused a call for its `maxmemory` (policy `noeviction`): the OOM error reply. Such
 * a refusal changed nothing; reads and deletes still work on that Redis.
 */
export const refusedForMemory = (error: unknown): boolean =>
  error instanceof ReplyError && String((error as Error).message).startsWith('OOM')
