import { Hono } from '../http/hono-app.js'
import { accepts } from 'hono/accepts'
import { insufficientStorage } from '../budget/insufficient-storage.js'
import { ApiError, badRequest } from '../http/errors.js'
import { readDataBody } from '../body/data-body.js'
import { restoreSnapshot, type Snapshot, snapshotOf } from './snapshot.js'
import type { Transport } from '../http/transport.js'
import type { YamlCodec } from '../body/yaml-data.js'
import type { JsonDataReader } from '../body/data-body.js'
import { attachment } from '../journal/download-name.js'
import type { SessionAccess } from '../http/request/session-reader.js'
import type { SessionState } from './port.js'

/** What the snapshot routes work on. */
export interface SnapshotDeps {
  /** The session a route works on (X-Mock-Session). */
  session: SessionAccess<SessionState>
  /** The mock's version, named in what it writes. */
  version: string
  /** Largest body read, in bytes (413 beyond). */
  bodyLimit: number
  /** Most pets a session holds (--max-pets). */
  maxPets: number
  transport: Transport
  /** Checks a snapshot (its pets a slice at a time): complete, or a sentence naming the field. */
  validateSnapshot(input: unknown): Promise<Snapshot | string>
  /** Snapshots as YAML; none: JSON only. */
  yaml?: YamlCodec
  /** The host's reader of JSON data bodies; none: parsed on the event loop. */
  jsonData?: JsonDataReader
}

/**
 * GET /snapshot: the session's world as a reproduction bundle (YAML, or JSON
 * with `Accept: application/json`); PUT /snapshot restores one into the
 * session, all or nothing: checked before its session is selected, so that a refused one makes none.
 */
export const snapshotRoutes = (deps: SnapshotDeps): Hono => {
  const { select, read, open, change } = deps.session
  return new Hono()
    .get('/snapshot', select, async (c) => {
      const session = read(c)
      const type = accepts(c, {
        header: 'Accept',
        supports: ['application/yaml', 'application/json'],
        default: 'application/yaml',
      })
      const yaml = type === 'application/json' ? undefined : deps.yaml
      const json = yaml === undefined
      const headers = {
        'Content-Type': json ? 'application/json' : 'application/yaml; charset=utf-8',
        'Content-Disposition': attachment(session.name, json ? '.snapshot.json' : '.snapshot.yaml'),
      }
      // A HEAD (hono runs this handler for it, then drops the body) is not worth a snapshot.
      if (c.req.method === 'HEAD') return c.body(null, 200, headers)
      const snapshot = await snapshotOf(session, deps.version)
      if (!yaml) return c.json(snapshot, 200, headers)
      return c.body(await yaml.stringify(snapshot), 200, headers)
    })
    .put('/snapshot', change, async (c) => {
      const snapshot = await deps.validateSnapshot(await readDataBody(c, deps, 'A snapshot'))
      if (typeof snapshot === 'string') throw badRequest(`${snapshot}.`)
      const { maxPets } = deps
      if (snapshot.pets.length > maxPets) {
        throw new ApiError(507, `${snapshot.pets.length} pets exceed the capacity of ${maxPets}; nothing was restored.`)
      }
      const refused = await restoreSnapshot(await open(c), snapshot)
      if (refused) throw insufficientStorage(refused)
      return c.body(null, 204)
    })
}
