/**
 * The `Authorization` header of a bearer token, to spread into a request's headers
 * (`{ ...bearer('adm'), 'X-Mock-Session': 's' }`). The mock takes any token for /v1 unless API
 * keys are set; `t` is the one suites use when the token does not matter.
 */
export const bearer = (token = 't'): { Authorization: string } => ({ Authorization: `Bearer ${token}` })
