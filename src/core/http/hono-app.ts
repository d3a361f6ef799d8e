import { HonoBase, type HonoOptions } from 'hono/hono-base'
import { TrieRouter } from 'hono/router/trie-router'
import type { BlankEnv, BlankSchema, Env, Schema } from 'hono/types'

/**
 * hono's `Hono`, routing with its TrieRouter unless `router` says otherwise. hono's own picks
 * between its RegExpRouter and its TrieRouter on the first request (SmartRouter), which brings both
 * into a browser bundle; the two answer the same. The apps the Node host and createApp serve keep
 * hono's choice (app.ts hands it in, see prepare-mock.ts's `router`); the routes of a sub-app
 * mounted with `route()` are added to its parent's router, so its own routes nothing.
 */
export class Hono<
  E extends Env = BlankEnv,
  S extends Schema = BlankSchema,
  BasePath extends string = '/',
> extends HonoBase<E, S, BasePath> {
  constructor(options: HonoOptions<E> = {}) {
    super(options)
    this.router = options.router ?? new TrieRouter()
  }
}

/** A router of hono's, as its option `router` takes it. */
export type HonoRouter = NonNullable<HonoOptions<BlankEnv>['router']>
