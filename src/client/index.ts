/**
 * `petstore-mock/client`: a typed client of a running mock's /__admin API, with helpers to verify
 * what the code under test sent. No dependency but the platform's `fetch`: runs in Node and browsers.
 */
export { createMockClient, type MockClient, type MockClientOptions, type SnapshotInput } from './mock-client.js'
export { MockAdminError } from './mock-admin-error.js'
export type { FetchLike } from './admin-http.js'
export type { RequestFilter, RequestMatcher } from './request-filter.js'
export { RequestNotReceivedError, type WaitForOptions } from './wait-for.js'
export type * from '../types/index.js'
