import { type SpawnedServer, spawnServer } from './spawn-server.js'
import { bearer } from './auth.js'

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

export const jsonHeaders = { ...bearer(), 'Content-Type': 'application/json' }

/** A POST/PUT of JSON with a token. */
export const sendJson = (method: string, body: unknown): RequestInit => ({
  method,
  headers: jsonHeaders,
  body: JSON.stringify(body),
})

/**
 * Reads a server-sent event stream until `found` says yes of what has arrived, for at most
 * `timeoutMs`; `opened` runs once the stream has answered (it is subscribed from then on).
 * On time out the error says what had arrived and whether `opened` had finished.
 */
export const readStreamUntil = async (
  url: string,
  found: (text: string) => boolean,
  opened: () => Promise<unknown>,
  timeoutMs = 10_000,
  headers: Record<string, string> = {},
): Promise<string> => {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  let text = ''
  let done = 'not started'
  try {
    const res = await fetch(url, { signal: controller.signal, headers })
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    // The stream says `retry` first: subscribed from then on.
    while (!text.includes('retry:')) text += decoder.decode((await reader.read()).value, { stream: true })
    done = 'running'
    await opened()
    done = 'finished'
    while (!found(text)) {
      const next = await reader.read()
      if (next.done) break
      text += decoder.decode(next.value, { stream: true })
    }
    await reader.cancel()
    return text
  } catch (error) {
    if (controller.signal.aborted)
      throw new Error(`no such event within ${timeoutMs} ms (opened: ${done}; received: ${JSON.stringify(text)})`)
    throw error
  } finally {
    clearTimeout(timer)
  }
}
