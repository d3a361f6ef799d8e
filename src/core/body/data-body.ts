import { ApiError, badRequest } from '../http/errors.js'
import { type JsonResult, parseJsonExact } from '../http/json.js'
import type { Transport } from '../http/transport.js'
import type { RequestContext, Stage } from '../http/stage.js'
import { type YamlCodec, YamlTooLargeError } from './yaml-data.js'
import { checkedBodyText } from './checked-text.js'
// The variable set here: the body.
import type {} from './read-body.js'

const yamlTypes = ['application/yaml', 'application/x-yaml', 'text/yaml']

const mediaType = (header: string | undefined): string => header?.split(';')[0]?.trim().toLowerCase() ?? ''

/**
 * Reads a JSON data body exactly, as {@link parseJsonExact} does (same value, same message); a
 * host may read it off the event loop (the Node host's, on a worker thread).
 */
export type JsonDataReader = (text: string) => Promise<JsonResult>

const readJson = async (read: JsonDataReader, text: string): Promise<JsonResult> => {
  try {
    return await read(text)
  } catch (error) {
    if (error instanceof YamlTooLargeError)
      throw new ApiError(413, `Request body is too large to read as JSON: ${error.message}.`)
    throw error
  }
}

/** What reading a data body needs from the host. */
export interface DataBodyDeps {
  bodyLimit: number
  transport: Transport
  /** The host's YAML; without one (msw in a browser) data bodies are JSON only. */
  yaml?: YamlCodec | undefined
  /** The host's reader of JSON data; without one, {@link parseJsonExact} on the event loop. */
  jsonData?: JsonDataReader | undefined
}

/**
 * Reads a data body, YAML or JSON by its Content-Type (numbers exact either
 * way): the steps of {@link checkedBodyText} (400 missing, 415, 413, UTF-8),
 * then 400 (413 for YAML beyond the reader's memory) when it cannot be
 * parsed. `noun` names it in messages ("A snapshot").
 */
export const readDataBody = async (c: RequestContext, deps: DataBodyDeps, noun: string): Promise<unknown> => {
  const type = mediaType(c.req.header('Content-Type'))
  const yaml = yamlTypes.includes(type)
  const rules = {
    maxBytes: deps.bodyLimit,
    transport: deps.transport,
    unsupported: yaml
      ? 'This mock reads JSON only (no YAML parser in this build); send Content-Type: application/json.'
      : `${noun} is YAML or JSON; send Content-Type: application/yaml or application/json.`,
    missing: `Request body is required: ${noun.replace(/^\w/, (l) => l.toLowerCase())}.`,
  }
  const text = await checkedBodyText(c, rules, type === 'application/json' || (yaml && deps.yaml !== undefined))
  if (!yaml) {
    const parsed = deps.jsonData ? await readJson(deps.jsonData, text) : parseJsonExact(text)
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
