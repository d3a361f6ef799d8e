import { Hono } from 'hono'
import { accepts } from 'hono/accepts'
import type { AppEnv } from '../app-env.js'
import { ApiError, badRequest } from '../http/errors.js'
import { readDataBody } from '../stages/data-body.js'
import { restoreSnapshot, snapshotOf } from '../state/snapshot.js'
import type { AdminDeps } from './admin.js'
import { attachment } from './download-name.js'

/**
 * GET /snapshot: the session's world as a reproduction bundle (YAML, or JSON
 * with `Accept: application/json`); PUT /snapshot restores one into the
 * session, all or nothing.
 */
export const snapshotRoutes = (
  deps: Pick<AdminDeps, 'session' | 'version' | 'bodyLimit' | 'transport' | 'validateSnapshot' | 'yaml'>,
): Hono<AppEnv> =>
  new Hono<AppEnv>()
    .get('/snapshot', deps.session, async (c) => {
      const snapshot = snapshotOf(c.var.session, deps.version)
      const type = accepts(c, {
        header: 'Accept',
        supports: ['application/yaml', 'application/json'],
        default: 'application/yaml',
      })
      if (type === 'application/json' || !deps.yaml) {
        return c.json(snapshot, 200, {
          'Content-Disposition': attachment(c.var.session.name, '.snapshot.json'),
        })
      }
      return c.body(await deps.yaml.stringify(snapshot), 200, {
        'Content-Type': 'application/yaml; charset=utf-8',
        'Content-Disposition': attachment(c.var.session.name, '.snapshot.yaml'),
      })
    })
    .put('/snapshot', deps.session, async (c) => {
      const snapshot = deps.validateSnapshot(await readDataBody(c, deps, 'A snapshot'))
      if (typeof snapshot === 'string') throw badRequest(`${snapshot}.`)
      const { maxPets } = c.var.session
      if (snapshot.pets.length > maxPets) {
        throw new ApiError(507, `${snapshot.pets.length} pets exceed the capacity of ${maxPets}; nothing was restored.`)
      }
      restoreSnapshot(c.var.session, snapshot)
      return c.body(null, 204)
    })
