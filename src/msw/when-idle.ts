type IdleScope = { requestIdleCallback?: (callback: () => void) => number }

/**
 * Runs `task` once the page's main thread is idle (requestIdleCallback), so that work nothing waits
 * for yet never delays the app's own tasks (its first render, input, msw's worker.start); where
 * there is no such callback (Node, Safari), in a task of its own.
 */
export const whenIdle = (task: () => void): void => {
  const scope = globalThis as IdleScope
  if (typeof scope.requestIdleCallback === 'function') scope.requestIdleCallback(task)
  else setTimeout(task)
}
