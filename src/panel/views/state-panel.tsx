import { useState } from 'preact/hooks'
import { numberField } from '../model/form-values.js'
import { Card, Field, NumberField } from './parts.js'
import { countByStatus } from '../model/pet-state.js'
import type { Pet } from '../types.js'

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
    <Card
      id="state-title"
      title="State"
      error={props.error}
      action={
        <button type="button" class="danger" onClick={props.onReset}>
          Reset session
        </button>
      }
    >
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
        <NumberField id="seed-count" label="Pets to generate" value={count} onInput={setCount} />
        <NumberField id="seed-value" label="Seed" value={seed} onInput={setSeed} />
        <button type="submit">Seed pets</button>
      </form>
      <Field id="pets-file" label="Replace pets from a JSON or YAML file" class="upload">
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
      </Field>
    </Card>
  )
}
