import { useState } from 'preact/hooks'
import { numberField } from './form-values.js'
import { countByStatus } from './pets.js'
import type { Pet } from './types.js'

const statuses = [
  ['available', 'Available'],
  ['pending', 'Pending'],
  ['sold', 'Sold'],
] as const

/** The session's pets: counts, reset, faker seeding, and replacement from a file. */
export function StatePanel(props: {
  pets: readonly Pet[] | undefined
  error: string | undefined
  onReset: () => void
  onSeed: (body: Record<string, unknown>) => Promise<boolean>
  onUpload: (file: File) => Promise<boolean>
}) {
  const [count, setCount] = useState('20')
  const [seed, setSeed] = useState('1')
  const counts = props.pets ? countByStatus(props.pets) : undefined
  const shown = (n: number | undefined) => (n === undefined ? '–' : n.toLocaleString('en'))
  return (
    <section class="card" aria-labelledby="state-title">
      <div class="card-head">
        <h2 id="state-title">State</h2>
        <button type="button" class="danger" onClick={props.onReset}>
          Reset session
        </button>
      </div>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <dl class="counts" aria-label="Pets by status">
        {statuses.map(([key, label]) => (
          <div key={key} class={`count count-${key}`}>
            <dt>{label}</dt>
            <dd>{shown(counts?.[key])}</dd>
          </div>
        ))}
        <div class="count">
          <dt>No status</dt>
          <dd>{shown(counts?.['none'])}</dd>
        </div>
        <div class="count count-total">
          <dt>Total</dt>
          <dd>{shown(props.pets?.length)}</dd>
        </div>
      </dl>
      <form
        class="seed-form"
        onSubmit={(e) => {
          e.preventDefault()
          void props.onSeed({ count: numberField(count), ...(seed.trim() !== '' && { seed: numberField(seed) }) })
        }}
      >
        <div class="field">
          <label for="seed-count">Pets to generate</label>
          <input
            id="seed-count"
            inputMode="numeric"
            autocomplete="off"
            value={count}
            onInput={(e) => setCount(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="seed-value">Seed</label>
          <input
            id="seed-value"
            inputMode="numeric"
            autocomplete="off"
            value={seed}
            onInput={(e) => setSeed(e.currentTarget.value)}
          />
        </div>
        <button type="submit">Seed pets</button>
      </form>
      <div class="field upload">
        <label for="pets-file">Replace pets from a JSON or YAML file</label>
        <input
          id="pets-file"
          type="file"
          accept=".json,.yaml,.yml,application/json,application/yaml"
          onChange={async (e) => {
            const input = e.currentTarget
            const file = input.files?.[0]
            if (file) await props.onUpload(file)
            input.value = ''
          }}
        />
      </div>
    </section>
  )
}
