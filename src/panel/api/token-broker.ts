/** Where the admin token is kept: sessionStorage, never a URL or a cookie. */
export const tokenStorageKey = 'petstore-mock.admin-token'

/** What the token prompt shows while it is open. */
export interface TokenPrompt {
  /** The server's words for the refusal. */
  message: string
  /** A token was sent and refused (rather than none sent). */
  refused: boolean
}

/** Thrown to the callers waiting for a token when the prompt is dismissed. */
export class TokenDismissed extends Error {
  override name = 'TokenDismissed'
}

interface Waiting {
  promise: Promise<string>
  resolve: (token: string) => void
  reject: (error: Error) => void
}

const waiting = (): Waiting => {
  let resolve!: (token: string) => void
  let reject!: (error: Error) => void
  const promise = new Promise<string>((yes, no) => {
    resolve = yes
    reject = no
  })
  return { promise, resolve, reject }
}

/**
 * The admin token: read from and kept in sessionStorage, asked for once when
 * the server answers 401, however many calls were refused at the same time
 * (they all wait for the same prompt).
 */
export class TokenBroker {
  readonly #storage: Pick<Storage, 'getItem' | 'setItem'> | undefined
  readonly #listeners = new Set<(prompt: TokenPrompt | undefined) => void>()
  #token: string | undefined
  #asking: Waiting | undefined
  #provided = waiting()

  constructor(storage?: Pick<Storage, 'getItem' | 'setItem'>) {
    this.#storage = storage
    try {
      this.#token = storage?.getItem(tokenStorageKey) ?? undefined
    } catch {
      // Storage disabled: the token lives as long as the page.
    }
  }

  get token(): string | undefined {
    return this.#token
  }

  /** Opens the prompt (or joins the open one); resolves with the token the user gives. */
  ask(prompt: TokenPrompt): Promise<string> {
    if (!this.#asking) {
      this.#asking = waiting()
      for (const listener of this.#listeners) listener(prompt)
    }
    return this.#asking.promise
  }

  /** The user gave a token: keep it and retry every waiting call. */
  provide(token: string): void {
    this.#token = token
    try {
      this.#storage?.setItem(tokenStorageKey, token)
    } catch {
      // Storage disabled or full: the token lives as long as the page.
    }
    this.#settle()?.resolve(token)
    const provided = this.#provided
    this.#provided = waiting()
    provided.resolve(token)
  }

  /** The user dismissed the prompt: the waiting calls fail with the server's 401. */
  dismiss(): void {
    this.#settle()?.reject(new TokenDismissed('No admin token given.'))
  }

  /** Resolves the next time a token is given (for a stream waiting to reconnect). */
  nextToken(): Promise<string> {
    return this.#provided.promise
  }

  /** Calls `listener` with the prompt to show, or undefined to close it; returns the unsubscribe. */
  subscribe(listener: (prompt: TokenPrompt | undefined) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  #settle(): Waiting | undefined {
    const asking = this.#asking
    this.#asking = undefined
    if (asking) for (const listener of this.#listeners) listener(undefined)
    return asking
  }
}
