import type { Server } from 'node:http'
import type { Socket } from 'node:net'

interface Progress {
  /** Bytes Node still holds for the socket (queued writes, the one under way included). */
  held: number
  /** Of those, the bytes handed to the system that it has not taken yet. */
  queued: number
  since: number
}

// libuv's count of the bytes of its pending writes: it shrinks as the kernel takes them, so a
// client reading a single large write slowly still shows progress.
const writeQueueSize = (socket: Socket): number =>
  (socket as unknown as { _handle?: { writeQueueSize?: number } })._handle?.writeQueueSize ?? 0

/**
 * Destroys a connection whose answer has not moved for `timeoutMs`: the
 * client stopped reading, and what it was sent (up to a whole list of pets,
 * a snapshot, an event stream's backlog) would otherwise stay in memory for
 * as long as it keeps the socket open. Only connections with bytes waiting
 * count; an idle keep-alive or a quiet event stream is not stalled. Returns
 * the function that stops watching.
 */
export const watchSendTimeout = (server: Server, timeoutMs: number): (() => void) => {
  const watched = new Map<Socket, Progress>()
  server.on('connection', (socket: Socket) => {
    watched.set(socket, { held: 0, queued: 0, since: 0 })
    socket.once('close', () => watched.delete(socket))
  })
  const sweep = setInterval(
    () => {
      const now = Date.now()
      for (const [socket, last] of watched) {
        const held = socket.writableLength
        const queued = writeQueueSize(socket)
        const moved = held === 0 || held < last.held || queued < last.queued
        if (moved || last.since === 0) Object.assign(last, { since: now })
        last.held = held
        last.queued = queued
        if (held > 0 && !moved && now - last.since >= timeoutMs) socket.destroy()
      }
    },
    Math.max(20, Math.min(1000, timeoutMs / 4)),
  )
  sweep.unref()
  return () => clearInterval(sweep)
}
