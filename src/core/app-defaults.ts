/**
 * The defaults of the app's options, the one place they are written: createApp
 * applies them, and the hosts (src/node/config.ts, src/msw/options.ts) start
 * from them. A module of its own so that a host reads them without loading
 * the app.
 */
export const appDefaults = {
  bodyLimit: 1024 * 1024,
  maxPets: 100_000,
  maxSessions: 100,
  journalSize: 1000,
} as const
