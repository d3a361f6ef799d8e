import { type Context, Hono } from 'hono'
import { accepts } from 'hono/accepts'
import type { AppEnv } from '../app-env.js'
import { ApiError, badRequest } from '../errors.js'
import { parseJsonExact } from '../json.js'
import { readBodyText } from '../read-body.js'
import { restoreSnapshot, snapshotOf } from '../snapshot.js'
import type { AdminDeps } from './admin.js'
import { attachment } from './download-name.js'

const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml']

const mediaType = (header: string | undefined): string => header?.split(';')[0]?.trim().toLowerCase() ?? ''

/** The snapshot a PUT carries, parsed by its Content-Type (YAML or JSON); 4xx when it cannot be read. */
const readSnapshotBody = async (
  c: Context<AppEnv>,
  deps: Pick<AdminDeps, 'bodyLimit' | 'transport' | 'yaml'>,
): Promise<unknown> => {
  const type = mediaType(c.req.header('Content-Type'))
  const yaml = YAML_TYPES.includes(type)
  if (yaml && !deps.yaml) {
    throw new ApiError(
      415,
      'This mock reads snapshots as JSON only (no YAML here); send Content-Type: application/json.',
    )
  }
  if (!yaml && type !== 'application/json') {
    throw new ApiError(415, 'A snapshot is YAML or JSON; send Content-Type: application/yaml or application/json.')
  }
  const text = await readBodyText(deps.transport.body(c), c.req.header('Content-Length'), deps.bodyLimit)
  if (text === 'too_large') throw new ApiError(413, `Request body is larger than the limit of ${deps.bodyLimit} bytes.`)
  if (text === 'not_utf8') throw badRequest('Request body is not valid UTF-8.')
  if (text.trim() === '') throw badRequest('Request body is required: a snapshot.')
  if (!yaml) {
    const parsed = parseJsonExact(text)
    if (!parsed.ok) throw badRequest(parsed.message)
    return parsed.value
  }
  try {
    return await deps.yaml!.parse(text)
  } catch (error) {
    throw badRequest(`Request body is not valid YAML: ${(error as Error).message}`)
  }
}

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
      const snapshot = deps.validateSnapshot(await readSnapshotBody(c, deps))
      if (typeof snapshot === 'string') throw badRequest(`${snapshot}.`)
      const { maxPets } = c.var.session
      if (snapshot.pets.length > maxPets) {
        throw new ApiError(507, `${snapshot.pets.length} pets exceed the capacity of ${maxPets}; nothing was restored.`)
      }
      restoreSnapshot(c.var.session, snapshot)
      return c.body(null, 204)
    })
