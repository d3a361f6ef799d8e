import type { RunningServer } from './server.js'

/**
 * Stops the server on the first SIGTERM or SIGINT: no new connections, requests in flight get at
 * most `graceMs` to finish, then the process exits 0.
 */
export const stopOnSignals = (running: RunningServer, graceMs = 5000): void => {
  const stop = () => {
    process.off('SIGTERM', stop)
    process.off('SIGINT', stop)
    void running.close(graceMs).then(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}
