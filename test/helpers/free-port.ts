import { createServer } from 'node:net'

/** A loopback port free right now, for a server a test starts itself (redis-server, nginx, vite preview). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
