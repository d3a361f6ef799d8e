/**
 * Marks a control-plane request an MCP tool made (issue 42): the admin guard's audit line says
 * `via=mcp`. A symbol on the `Request` object, not a header: a client cannot claim it.
 */
const viaKey = Symbol('petstore-mock.via-mcp')

type Marked = Request & { [viaKey]?: true }

/** The same request, marked as an MCP tool's. */
export const markViaMcp = (request: Request): Request => {
  ;(request as Marked)[viaKey] = true
  return request
}

/** Whether an MCP tool made the request. */
export const isViaMcp = (request: Request): boolean => (request as Marked)[viaKey] === true
