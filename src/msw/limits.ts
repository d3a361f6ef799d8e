/**
 * The ranges of the server's flags for the options msw shares with it, so
 * both hosts accept the same values. Copied, not imported, to keep the Node
 * host out of the browser bundle; a test keeps them equal to src/node/options.ts.
 */
export const optionLimits = {
  maxPets: { flag: 'max-pets', min: 0, max: 100_000_000 },
  maxSessions: { flag: 'max-sessions', min: 1, max: 100_000 },
  journalSize: { flag: 'journal-size', min: 0, max: 1_000_000 },
  bodyLimit: { flag: 'body-limit', min: 1, max: 1024 ** 3 },
  seed: { flag: 'seed', min: 0, max: 2 ** 32 - 1 },
  count: { flag: 'count', min: 0, max: 10_000_000 },
} as const

/** How many pets faker generates when no count is given (the server's --count default). */
export const defaultFakerCount = 50
