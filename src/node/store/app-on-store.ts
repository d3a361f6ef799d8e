import type { Hono } from 'hono'
import type { AppEnv } from '../../core/app.js'
import { type AppOptions, prepareMock } from '../../core/app.js'
import type { StoreFactory } from './open-store.js'

/**
 * The app on a store of the host's (Redis), built once the store holds the start state; a store that
 * cannot get ready is closed, so that its connections do not keep a failed start alive.
 */
export const appOnStore = async (options: AppOptions, store: StoreFactory): Promise<Hono<AppEnv>> => {
  let made: ReturnType<StoreFactory> | undefined
  const prepared = prepareMock(options, (start, max) => (made = store(start, max)))
  try {
    await made!.ready
  } catch (error) {
    made!.close()
    throw error
  }
  return prepared.build()
}
