import { type BoundPorts, getContainerRuntimeClient, type WaitStrategy } from 'testcontainers'

type Container = Parameters<WaitStrategy['waitUntilReady']>[0]

/** Lines of the container's output quoted when it exits before it is healthy. */
const logTail = 20

/** Docker multiplexes stdout and stderr in frames with an 8-byte header; a TTY or some engines send plain text. */
const demultiplex = (data: Buffer): string => {
  const parts: Buffer[] = []
  let offset = 0
  while (
    offset + 8 <= data.length &&
    (data[offset] === 1 || data[offset] === 2) &&
    data.readUIntBE(offset + 1, 3) === 0
  ) {
    const size = data.readUInt32BE(offset + 4)
    parts.push(data.subarray(offset + 8, offset + 8 + size))
    offset += 8 + size
  }
  return (offset === data.length ? Buffer.concat(parts) : data).toString('utf8').trimEnd()
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Waits until GET /__admin/health answers 200; fails at once, quoting the
 * server's output, when the container exits first (a bad fault rule or
 * fixtures file), rather than after the whole start-up timeout. Testcontainers'
 * own `abortOnContainerExit` hangs reading the logs of an exited container on Podman.
 */
export class HealthWaitStrategy implements WaitStrategy {
  readonly #port: number
  readonly #path = '/__admin/health'
  #timeoutMs = 60_000
  #timeoutSet = false

  constructor(port: number) {
    this.#port = port
  }

  async waitUntilReady(container: Container, boundPorts: BoundPorts): Promise<void> {
    const client = await getContainerRuntimeClient()
    const url = `http://${client.info.containerRuntime.host}:${boundPorts.getBinding(this.#port)}${this.#path}`
    const deadline = Date.now() + this.#timeoutMs
    while (Date.now() < deadline) {
      const status = await fetch(url, { signal: AbortSignal.timeout(1000) }).then(
        async (response) => {
          await response.body?.cancel()
          return response.status
        },
        () => undefined,
      )
      if (status === 200) return
      const { State } = await container.inspect()
      if (!State.Running) {
        const logs = await container.logs({ stdout: true, stderr: true, follow: false, tail: logTail })
        throw new Error(
          `petstore-mock exited with code ${State.ExitCode} before ${this.#path} answered; its output:\n${demultiplex(logs)}`,
        )
      }
      await sleep(100)
    }
    throw new Error(`petstore-mock did not answer 200 on ${url} within ${this.#timeoutMs} ms`)
  }

  withStartupTimeout(startupTimeoutMs: number): this {
    this.#timeoutMs = startupTimeoutMs
    this.#timeoutSet = true
    return this
  }

  isStartupTimeoutSet(): boolean {
    return this.#timeoutSet
  }

  getStartupTimeout(): number {
    return this.#timeoutMs
  }
}
