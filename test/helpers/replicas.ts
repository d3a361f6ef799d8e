import { type SpawnedServer, spawnServer } from './spawn-server.js'

let prefixes = 0

/** A key prefix no other test uses. */
export const freshPrefix = (): string => `replicas-${process.pid}-${++prefixes}`

/** `count` CLI servers on one Redis store and prefix (each stopped by its PID in `stop`). */
export const startReplicas = async (
  redisUrl: string,
  count: number,
  options: { prefix?: string; args?: string[] } = {},
): Promise<{ replicas: SpawnedServer[]; prefix: string; stop: () => Promise<void> }> => {
  const prefix = options.prefix ?? freshPrefix()
  const args = ['--store', redisUrl, '--store-prefix', prefix, '--log', 'silent', ...(options.args ?? [])]
  const replicas: SpawnedServer[] = []
  // One after another: the first writes the start template, the others find it.
  for (let i = 0; i < count; i++) replicas.push(await spawnServer(args, {}, 15_000))
  return { replicas, prefix, stop: async () => void (await Promise.all(replicas.map((r) => r.stop('SIGKILL')))) }
}

export const bearer = { Authorization: 'Bearer t' }
export const jsonHeaders = { ...bearer, 'Content-Type': 'application/json' }

/** A POST/PUT of JSON with a token. */
export const sendJson = (method: string, body: unknown): RequestInit => ({
  method,
  headers: jsonHeaders,
  body: JSON.stringify(body),
})

/** Reads a server-sent event stream until `found` says yes of what has arrived, for at most `timeoutMs`. */
export const readStreamUntil = async (
  url: string,
  found: (text: string) => boolean,
  opened: () => Promise<unknown>,
  timeoutMs = 5000,
): Promise<string> => {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  try {
    const res = await fetch(url, { signal: controller.signal })
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    // The stream says `retry` first: subscribed from then on.
    while (!text.includes('retry:')) text += decoder.decode((await reader.read()).value, { stream: true })
    await opened()
    while (!found(text)) {
      const { value, done } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
    await reader.cancel()
    return text
  } catch (error) {
    if (controller.signal.aborted) throw new Error(`no such event within ${timeoutMs} ms`)
    throw error
  } finally {
    clearTimeout(timer)
  }
}
