import type { ReadinessCheck } from '../../core/observe/observer.js'

/**
 * Whether the server drains: a stop signal came (stop-on-signals.ts). From then on readiness
 * answers 503 and every answer closes its connection (server.ts), while the server still accepts
 * and serves: load balancers and kube-proxy drop the replica on their own time, and what they send
 * meanwhile is served (docs/scale-out.md#stopping-a-replica).
 */
export class Draining {
  #reason: string | undefined

  /** True once {@link begin} was called. */
  readonly active = (): boolean => this.#reason !== undefined

  /** Not ready from now on, saying why (the signal). */
  begin(signal: string): void {
    this.#reason ??=
      `The server is stopping (${signal}): it serves what still reaches it for a few seconds, then exits; ` +
      'send new requests to another replica.'
  }

  /** `inner` (the store's check; none: ready), or 503 with the reason while draining. */
  readiness(inner: ReadinessCheck | undefined): ReadinessCheck {
    return () => this.#reason ?? inner?.()
  }
}

/** Resolves after `ms`. */
export const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms))
