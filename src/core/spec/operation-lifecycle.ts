import { ApiError } from '../http/errors.js'
import { formatDay } from '../time/instant.js'
import type { SpecOperation } from './spec.js'

/** `GET /v1/pets/{petId}`: an operation as people write it. */
export const operationLabel = (operation: SpecOperation): string =>
  `${operation.method} ${operation.routePath.replace(/:([^/]+)/g, '{$1}')}`

/** The replacement as `x-replacement` names it (`GET /v1/pets?status={status}`), or a placeholder. */
export const replacementOf = (operation: SpecOperation): string => operation.replacement ?? 'the documented replacement'

/**
 * What every answer of a deprecated operation carries: `Deprecation`
 * (RFC 9745), `Sunset` (RFC 8594) and a `Link` to the replacement.
 */
export const lifecycleHeaders = (operation: SpecOperation): Record<string, string> => {
  const headers: Record<string, string> = {}
  // RFC 9745: a date in the past (the spec gives none) means "deprecated now".
  if (operation.deprecated) headers['Deprecation'] = '@0'
  if (operation.sunset) headers['Sunset'] = operation.sunset.toUTCString()
  const link = operation.replacement?.split(' ')[1]?.replace(/\?.*$/, '')
  if (link) headers['Link'] = `<${link}>; rel="successor-version"`
  return headers
}

/** The 410 an operation answers from its sunset on, whether the clock got there or a client forced it. */
export const goneError = (operation: SpecOperation): ApiError => {
  const removed = operation.sunset ? formatDay(operation.sunset) : 'its sunset date'
  return new ApiError(
    410,
    `${operation.id} (${operationLabel(operation)}) was removed on ${removed}; use ${replacementOf(operation)} instead.`,
    { headers: lifecycleHeaders(operation) },
  )
}
