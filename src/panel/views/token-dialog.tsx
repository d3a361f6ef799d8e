import { useEffect, useRef, useState } from 'preact/hooks'
import type { TokenBroker, TokenPrompt } from '../api/token-broker.js'

/**
 * Asks for the admin token when the server refuses a call with 401: a modal
 * dialog, opened once however many calls wait. The token goes to
 * sessionStorage (this tab only), never into a URL or a cookie.
 */
export function TokenDialog({ tokens }: { tokens: TokenBroker }) {
  const [prompt, setPrompt] = useState<TokenPrompt>()
  const [token, setToken] = useState('')
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => tokens.subscribe(setPrompt), [tokens])
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (prompt && !element.open) element.showModal()
    if (!prompt && element.open) element.close()
  }, [prompt])
  return (
    <dialog ref={dialog} class="token-dialog" aria-labelledby="token-title" onCancel={() => tokens.dismiss()}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          if (token === '') return
          tokens.provide(token)
          setToken('')
        }}
      >
        <h2 id="token-title">Unlock the admin API</h2>
        <p>
          This server was started with <code>--admin-token</code>. The token is kept in this tab only (session storage).
        </p>
        {prompt?.refused && (
          <p class="error" role="alert">
            {prompt.message}
          </p>
        )}
        <div class="field">
          <label for="admin-token">Admin token</label>
          <input
            id="admin-token"
            type="password"
            autocomplete="off"
            autofocus
            required
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        </div>
        <div class="actions">
          <button type="button" onClick={() => tokens.dismiss()}>
            Cancel
          </button>
          <button type="submit" class="primary">
            Unlock
          </button>
        </div>
      </form>
    </dialog>
  )
}
