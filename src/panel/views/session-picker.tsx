import { plural } from '../model/describe.js'
import { useState } from 'preact/hooks'
import type { SessionSummary } from '../types.js'

// As the server's (session-name.ts): not `.` or `..`, which URLs drop. The browser anchors a pattern.
const NAME = '(?!\\.\\.?$)[A-Za-z0-9._\\-]{1,64}'

const optionText = (s: SessionSummary): string =>
  `${s.name} · ${plural(s.pets, 'pet')} · ${plural(s.faults, 'rule')} · ${plural(s.requests, 'request')}`

/** The session every control acts on: the known sessions, or a new name. */
export function SessionPicker(props: {
  session: string
  sessions: readonly SessionSummary[] | undefined
  onSwitch: (name: string) => void
}) {
  const [name, setName] = useState('')
  const known = props.sessions ?? []
  // The current session is listed even before the server reports it.
  const list = known.some((s) => s.name === props.session)
    ? known
    : [{ name: props.session, pets: 0, faults: 0, requests: 0 }, ...known]
  return (
    <div class="session">
      <label for="session-picker">Session</label>
      <select id="session-picker" value={props.session} onChange={(e) => props.onSwitch(e.currentTarget.value)}>
        {list.map((s) => (
          <option key={s.name} value={s.name}>
            {known.includes(s) ? optionText(s) : s.name}
          </option>
        ))}
      </select>
      <form
        class="new-session"
        onSubmit={(e) => {
          e.preventDefault()
          if (!e.currentTarget.reportValidity()) return
          props.onSwitch(name)
          setName('')
        }}
      >
        <label for="new-session" class="sr-only">
          New session name
        </label>
        <input
          id="new-session"
          value={name}
          pattern={NAME}
          required
          placeholder="new session name"
          title="1 to 64 characters: A-Z a-z 0-9 . _ -, and not . or .."
          autocomplete="off"
          spellcheck={false}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <button type="submit">Open</button>
      </form>
    </div>
  )
}
