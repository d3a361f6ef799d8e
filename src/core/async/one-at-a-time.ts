/** Runs tasks one after the other, in the order they were handed in. */
export interface OneAtATime {
  run<T>(task: () => Promise<T>): Promise<T>
}

/**
 * A queue of one: each task starts once the one before it settled, so that
 * what a burst of large tasks (seeds of 100,000 pets) holds at once is one
 * task's worth, not the burst's.
 */
export const oneAtATime = (): OneAtATime => {
  let last: Promise<unknown> = Promise.resolve()
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const next = last.then(task, task)
      last = next.catch(() => {})
      return next
    },
  }
}
