import type { Context } from 'hono'
import { ApiError, badRequest } from '../http/errors.js'
import { parseJsonExact } from '../http/json.js'
import { readBodyText } from '../http/read-body.js'
import type { Transport } from '../http/transport.js'
import type { YamlCodec } from '../http/yaml-data.js'
import type { Stage } from './stage.js'

const yamlTypes = ['application/yaml', 'application/x-yaml', 'text/yaml']

const mediaType = (header: string | undefined): string => header?.split(';')[0]?.trim().toLowerCase() ?? ''

/** What reading a data body needs from the host. */
export interface DataBodyDeps {
  bodyLimit: number
  transport: Transport
  /** The host's YAML; without one (msw in a browser) data bodies are JSON only. */
  yaml?: YamlCodec | undefined
}

/**
 * Reads a data body, YAML or JSON by its Content-Type (numbers exact either
 * way); 415, 413 or 400 when it cannot be read. `noun` names it in messages
 * ("A snapshot").
 */
export const readDataBody = async (c: Context, deps: DataBodyDeps, noun: string): Promise<unknown> => {
  const { bodyLimit: maxBytes, transport } = deps
  const type = mediaType(c.req.header('Content-Type'))
  const yaml = yamlTypes.includes(type)
  if (yaml && !deps.yaml) {
    throw new ApiError(
      415,
      'This mock reads JSON only (no YAML parser in this build); send Content-Type: application/json.',
    )
  }
  if (!yaml && type !== 'application/json') {
    throw new ApiError(415, `${noun} is YAML or JSON; send Content-Type: application/yaml or application/json.`)
  }
  const text = await readBodyText((max) => transport.readBody(c, max), c.req.header('Content-Length'), maxBytes)
  if (text === 'too_large') throw new ApiError(413, `Request body is larger than the limit of ${maxBytes} bytes.`)
  if (text === 'not_utf8') throw badRequest('Request body is not valid UTF-8.')
  if (text.trim() === '') throw badRequest(`Request body is required: ${noun.replace(/^\w/, (l) => l.toLowerCase())}.`)
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

/** {@link readDataBody} as a stage: the parsed body in `c.var.body`. */
export const dataBody =
  (deps: DataBodyDeps, noun: string): Stage =>
  (c, next) =>
    readDataBody(c, deps, noun).then((body) => {
      c.set('body', body)
      return next(c)
    })
