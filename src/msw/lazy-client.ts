import type { MockClient, MockClientOptions } from '../client/mock-client.js'

// The calls of the typed client, by group: `true` for a call. `satisfies` holds this table to MockClient's
// shape, so a call added to the client and not here (or named wrongly here) fails to compile.
type CallTable<T> = {
  readonly [K in keyof T]: T[K] extends (...args: never[]) => unknown ? true : CallTable<T[K]>
}
type Calls = CallTable<Omit<MockClient, 'baseUrl' | 'session' | 'withSession'>>

const calls = {
  health: true,
  reset: true,
  seed: true,
  faults: { add: true, put: true, list: true, remove: true, clear: true },
  timelines: { put: true, get: true, list: true, remove: true },
  state: { get: true, put: true },
  requests: { list: true, clear: true, waitFor: true, count: true, har: true },
  snapshot: { get: true, yaml: true, put: true },
  clock: { get: true, set: true, reset: true },
  rateLimit: { get: true, set: true, clear: true },
  deprecations: true,
  coverage: true,
  clearCoverage: true,
  pact: true,
  providerState: true,
  sessions: { list: true, open: true, delete: true },
} as const satisfies Calls

type AnyCall = (...args: unknown[]) => Promise<unknown>
type Table = { readonly [name: string]: true | Table }

/**
 * petstore-mock/client's typed client, loaded by an import() on its first call: the msw bundle an app loads at
 * start then carries this table instead of the client and its HTTP (about 1.3 KB gzip; most set-ups call no
 * control, or only after start). Every call is the real client's, with the same answers and `MockAdminError`s.
 * `baseUrl` must already be normalised (an origin, no trailing slash): it is the in-process one.
 */
export const lazyMockClient = (options: MockClientOptions & { baseUrl: string }): MockClient => {
  let client: Promise<MockClient> | undefined
  const real = () => (client ??= import('../client/mock-client.js').then((m) => m.createMockClient(options)))
  const group = (table: Table, path: readonly string[]): object =>
    Object.fromEntries(
      Object.entries(table).map(([name, entry]) => {
        if (entry !== true) return [name, group(entry, [...path, name])]
        const call: AnyCall = async (...args) => {
          let target: unknown = await real()
          for (const step of path) target = (target as Record<string, unknown>)[step]
          return ((target as Record<string, AnyCall>)[name] as AnyCall)(...args)
        }
        return [name, call]
      }),
    )
  return {
    ...(group(calls, []) as Omit<MockClient, 'baseUrl' | 'session' | 'withSession'>),
    baseUrl: options.baseUrl,
    session: options.session,
    withSession: (name) => lazyMockClient({ ...options, session: name }),
  }
}
