import type { Context } from 'hono'
import { ApiError, badRequest } from '../http/errors.js'
import { parseJsonExact } from '../http/json.js'
import { bodyIsAbsent, readBodyText } from '../http/read-body.js'
import type { Transport } from '../http/transport.js'
import { type YamlCodec, YamlTooLargeError } from './yaml-data.js'
import type { Stage } from '../http/stage.js'

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
 * way); 400 when there is none (whatever the content type), else 415, 413 or
 * 400 when it cannot be read. `noun` names it in messages ("A snapshot").
 */
export const readDataBody = async (c: Context, deps: DataBodyDeps, noun: string): Promise<unknown> => {
  const { bodyLimit: maxBytes, transport } = deps
  const read = (max: number) => transport.readBody(c, max)
  const declaredLength = c.req.header('Content-Length')
  const missing = () => badRequest(`Request body is required: ${noun.replace(/^\w/, (l) => l.toLowerCase())}.`)
  const type = mediaType(c.req.header('Content-Type'))
  const yaml = yamlTypes.includes(type)
  if (type !== 'application/json' && !(yaml && deps.yaml)) {
    // No body is a missing body, not one of the wrong type.
    if (await bodyIsAbsent(read, declaredLength)) throw missing()
    throw new ApiError(
      415,
      yaml
        ? 'This mock reads JSON only (no YAML parser in this build); send Content-Type: application/json.'
        : `${noun} is YAML or JSON; send Content-Type: application/yaml or application/json.`,
    )
  }
  const text = await readBodyText(read, declaredLength, maxBytes)
  if (text === 'too_large') throw new ApiError(413, `Request body is larger than the limit of ${maxBytes} bytes.`)
  if (text === 'not_utf8') throw badRequest('Request body is not valid UTF-8.')
  if (text.trim() === '') throw missing()
  if (!yaml) {
    const parsed = parseJsonExact(text)
    if (!parsed.ok) throw badRequest(parsed.message)
    return parsed.value
  }
  try {
    return await deps.yaml!.parse(text)
  } catch (error) {
    if (error instanceof YamlTooLargeError)
      throw new ApiError(413, `Request body is too large to read as YAML: ${error.message}.`)
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
