/**
 * A turn of the event loop: resolves once the host has served what waits (I/O, timers). Node's
 * `setImmediate` where there is one (a `setTimeout` of 0 waits a millisecond there), else a
 * `setTimeout` of 0 (a browser). Work done in slices awaits it between two slices, so that other
 * clients are answered meanwhile however large the work.
 */
export const nextTurn = (): Promise<void> =>
  new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)))

// Looked up, not named: the browser's types (and browsers) have no setImmediate.
const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate
