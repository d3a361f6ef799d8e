import type { TestProject } from 'vitest/node'
import { startRedis } from './redis-server.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set in the `redis` and `redis-lb` projects: the URL of the redis-server its suites run on. */
    redisUrl: string
    /** Set in the `redis-lb` project (vitest.redis.config.ts): requests go through nginx to three replicas. */
    loadBalanced: boolean
  }
}

/** vitest global setup of the `redis` and `redis-lb` projects: one redis-server for the run, stopped by PID at the end. */
export default async function redisSetup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startRedis()
  project.provide('redisUrl', redis.url)
  return () => redis.dispose()
}
