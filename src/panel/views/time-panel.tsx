import { useState } from 'preact/hooks'
import { Card, Field } from './parts.js'
import { clockText, rateText } from '../model/describe.js'
import type { ClockView, RateLimitView } from '../types.js'

/**
 * The session's mock clock and rate limit, as `/__admin/clock` and
 * `/__admin/rate-limit` set them: what is typed is sent as typed, and the
 * server's refusal shown in its words.
 */
export function TimePanel(props: {
  clock: ClockView | undefined
  rate: RateLimitView | undefined
  error: string | undefined
  onSetClock: (body: { now?: string; frozen: boolean }) => Promise<boolean>
  onRealTime: () => void
  onSetRate: (rate: string) => Promise<boolean>
  onNoLimit: () => void
}) {
  const [now, setNow] = useState('')
  const [frozen, setFrozen] = useState(false)
  const [rate, setRate] = useState('')
  return (
    <Card
      id="time-title"
      title="Clock and rate limit"
      error={props.error}
      action={
        <button type="button" class="danger" onClick={props.onRealTime}>
          Real time
        </button>
      }
    >
      <dl class="facts">
        <div>
          <dt>Clock</dt>
          <dd data-testid="clock-now">{clockText(props.clock)}</dd>
        </div>
        <div>
          <dt>Rate limit</dt>
          <dd data-testid="rate-limit">{rateText(props.rate)}</dd>
        </div>
      </dl>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault()
          void props.onSetClock({ ...(now.trim() !== '' && { now: now.trim() }), frozen })
        }}
      >
        <Field id="clock-instant" label="Clock at (ISO 8601)">
          <input
            id="clock-instant"
            autocomplete="off"
            spellcheck={false}
            placeholder="2030-12-05T00:00:00Z"
            value={now}
            onInput={(e) => setNow(e.currentTarget.value)}
          />
        </Field>
        <label class="check" for="clock-frozen">
          <input
            id="clock-frozen"
            type="checkbox"
            checked={frozen}
            onChange={(e) => setFrozen(e.currentTarget.checked)}
          />
          Frozen
        </label>
        <button type="submit">Set clock</button>
      </form>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault()
          void props.onSetRate(rate.trim())
        }}
      >
        <Field id="rate-value" label="Rate limit (n/s, n/m, n/h)">
          <input
            id="rate-value"
            autocomplete="off"
            spellcheck={false}
            placeholder="100/m"
            value={rate}
            onInput={(e) => setRate(e.currentTarget.value)}
          />
        </Field>
        <button type="submit">Set limit</button>
        <button type="button" onClick={props.onNoLimit}>
          No limit
        </button>
      </form>
    </Card>
  )
}
