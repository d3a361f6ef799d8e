import type { ErrorObject, ValidateFunction } from 'ajv'
import { sendAdmin, type AdminRequest, type FetchLike } from '../../client/admin-http.js'
import { MockAdminError } from '../../client/mock-admin-error.js'
import { createAjv } from '../../core/spec/ajv.js'
import { tokenCovers, scopeOf } from '../../core/access/token-scope.js'
import type { McpToken } from '../../core/admin/mcp-seam.js'
import type { ErrorBody } from '../../types/index.js'
import { ExplainError, explainEntry, type ExplainInput } from './explain.js'
import { findOperation, toolInputSchema, type JsonSchema, type OpenApiDocument } from './tool-schemas.js'
import { type Args, type ToolCall, type ToolSpec, toolSpecs } from './tool-table.js'

/** A tool as tools/list shows it, with its check and whether it changes the mock. */
export interface Tool {
  spec: ToolSpec
  inputSchema: JsonSchema
  /** Its route changes the mock (not GET): a read token is not shown it. */
  writes: boolean
  /** Its arguments' check, compiled on the tool's first call (a first tools/list compiles none). */
  validate(): ValidateFunction
}

/** A tool's answer: the route's JSON as structured content (and as text, for clients that read text only). */
export interface ToolResult {
  [key: string]: unknown
  content: { type: 'text'; text: string }[]
  structuredContent: Record<string, unknown>
  isError?: boolean
}

/** Every tool, its input schema read from the documents (tool-schemas.ts), compiled once. */
export const buildTools = (adminDoc: OpenApiDocument, contractDoc: OpenApiDocument): Tool[] => {
  const ajv = createAjv({ allErrors: true, verbose: false, logger: false })
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (s: string) =>
      /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(s) && !Number.isNaN(Date.parse(s)),
  })
  return toolSpecs.map((spec) => {
    const doc = spec.document === 'admin' ? adminDoc : contractDoc
    const inputSchema = toolInputSchema(doc, spec.source, adminDoc)
    let validate: ValidateFunction | undefined
    return {
      spec,
      inputSchema,
      writes: findOperation(doc, spec.source.operation).method !== 'GET',
      validate: () => (validate ??= ajv.compile(inputSchema)),
    }
  })
}

/** The tools a caller is shown: a read token's list has no tool that changes the mock; a metrics token gets none. */
export const toolsFor = (tools: readonly Tool[], token: McpToken): Tool[] =>
  token?.access === 'metrics' ? [] : token?.access === 'read' ? tools.filter((t) => !t.writes) : [...tools]

const json = (value: Record<string, unknown>, isError = false): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
  ...(isError && { isError: true }),
})

/** A tool error carrying the route's `Error` body (its code and status). */
export const errorResult = (body: ErrorBody): ToolResult => json({ ...body }, true)

const argumentError = (errors: readonly ErrorObject[]): ErrorBody => {
  const [first] = errors
  const where = first?.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : 'the arguments'
  const extra = first?.keyword === 'additionalProperties' ? ` (${String(first.params['additionalProperty'])})` : ''
  return {
    code: 'bad_request',
    status: 400,
    message: `Invalid arguments: ${where} ${first?.message ?? 'are not valid'}${extra}; nothing was changed.`,
  }
}

/** How a tool's calls reach the mock. */
export interface ToolBackend {
  /** The mock's origin (`http://127.0.0.1:4010`). */
  baseUrl: string
  /** The admin token sent with each admin request, as the caller sent it. */
  adminToken: string | undefined
  /** The mock, in-process or over HTTP. */
  fetch: FetchLike
  caller: { token: McpToken; apiKeyFor(session: string): string }
}

const adminCall = async (backend: ToolBackend, session: string | undefined, request: AdminRequest) => {
  const response = await sendAdmin(
    { baseUrl: backend.baseUrl, adminToken: backend.adminToken, session, fetch: backend.fetch },
    request,
  )
  const text = await response.text()
  if (text === '') return { status: response.status }
  const body: unknown = JSON.parse(text)
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : { value: body }
}

const headersOf = (response: Response): Record<string, string> => Object.fromEntries(response.headers.entries())

const operationCall = async (backend: ToolBackend, call: Extract<ToolCall, { kind: 'operation' }>) => {
  const { token } = backend.caller
  // /v1 knows no admin token: the tool keeps the token's scope itself, in the guard's words.
  if (token !== undefined && !tokenCovers({ ...token, secret: '' }, call.session)) {
    return errorResult({
      code: 'forbidden',
      status: 403,
      message: `The admin token ${token.name} is scoped to sessions ${token.patterns?.join(' ') ?? '(none)'} (${scopeOf({ ...token, secret: '' })}), not ${call.session}.`,
    })
  }
  const headers: Record<string, string> = {
    Accept: 'application/json',
    Authorization: `Bearer ${call.apiKey ?? backend.caller.apiKeyFor(call.session)}`,
  }
  if (call.body !== undefined) headers['Content-Type'] = 'application/json'
  let response: Response
  try {
    response = await backend.fetch(`${backend.baseUrl}/sessions/${encodeURIComponent(call.session)}${call.path}`, {
      method: call.method,
      headers,
      ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
    })
  } catch (error) {
    // A connection_reset fault: no answer, as the journal records it (status 0).
    if ((error as Error).name === 'ConnectionResetError') {
      return json({ status: 0, headers: {}, body: null })
    }
    throw error
  }
  const text = await response.text()
  let body: unknown = text === '' ? null : text
  try {
    body = text === '' ? null : JSON.parse(text)
  } catch {
    // Not JSON (a transport fault's malformed body): the text as it came.
  }
  return json({ status: response.status, headers: headersOf(response), body })
}

/** Moves the clock forward from where it is: the clock read, then set (clock_set's `advanceMs`). */
const setClock = async (backend: ToolBackend, args: Args) => {
  const { session, advanceMs, ...body } = args
  if (advanceMs !== undefined) {
    if (body['now'] !== undefined) {
      return errorResult({
        code: 'bad_request',
        status: 400,
        message: 'Invalid arguments: give now or advanceMs, not both; nothing was changed.',
      })
    }
    const clock = await adminCall(backend, session, { method: 'GET', path: '/clock' })
    body['now'] = new Date(Date.parse(String(clock['now'])) + Number(advanceMs)).toISOString()
    // Setting `now` alone restarts the clock: an advance keeps it frozen when it was.
    body['frozen'] ??= clock['frozen']
  }
  return json(await adminCall(backend, session, { method: 'PUT', path: '/clock', json: body }))
}

/**
 * Runs a tool: the arguments checked by its schema first (a refusal changes nothing), then its
 * request(s); an error answer is a tool error carrying the route's `Error` body.
 */
export const runTool = async (tool: Tool, rawArgs: unknown, backend: ToolBackend): Promise<ToolResult> => {
  const args = (rawArgs ?? {}) as Args
  const validate = tool.validate()
  if (!validate(args)) return errorResult(argumentError(validate.errors ?? []))
  try {
    if (tool.spec.name === 'clock_set') return await setClock(backend, args)
    if (tool.spec.name === 'explain_request') {
      const input: ExplainInput = {
        read: (request) => adminCall(backend, args['session'], request),
        id: args['id'],
      }
      return json(await explainEntry(input))
    }
    const call = tool.spec.call!(args)
    if (call.kind === 'operation') return await operationCall(backend, call)
    return json(await adminCall(backend, call.session, call.request))
  } catch (error) {
    if (error instanceof MockAdminError) return errorResult(error.body)
    if (error instanceof ExplainError) return errorResult(error.body)
    throw error
  }
}
