import { useState } from 'preact/hooks'
import { numberField } from '../model/form-values.js'
import { Card, Field, NumberField } from './parts.js'
import { countByStatus, snapshotFile } from '../model/pet-state.js'
import type { Pet } from '../types.js'

const statuses = [
  ['available', 'Available'],
  ['pending', 'Pending'],
  ['sold', 'Sold'],
] as const

/**
 * The session's pets: counts, reset, faker seeding (either data profile),
 * replacement from a file, and a whole reproduction bundle loaded (its
 * snapshot, chosen or dropped).
 */
export function StatePanel(props: {
  pets: readonly Pet[] | undefined
  error: string | undefined
  onReset: () => void
  onSeed: (body: Record<string, unknown>) => Promise<boolean>
  onUpload: (file: File) => Promise<boolean>
  onLoadBundle: (file: File) => Promise<boolean>
}) {
  const [count, setCount] = useState('20')
  const [seed, setSeed] = useState('1')
  const [data, setData] = useState('realistic')
  const [dragging, setDragging] = useState(false)
  const counts = props.pets ? countByStatus(props.pets) : undefined
  const shown = (n: number | undefined) => (n === undefined ? '–' : n.toLocaleString('en'))
  const load = async (files: readonly File[]) => {
    const file = snapshotFile(files)
    if (file) await props.onLoadBundle(file)
  }
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
          void props.onSeed({
            count: numberField(count),
            ...(seed.trim() !== '' && { seed: numberField(seed) }),
            ...(data !== 'realistic' && { data }),
          })
        }}
      >
        <NumberField id="seed-count" label="Pets to generate" value={count} onInput={setCount} />
        <NumberField id="seed-value" label="Seed" value={seed} onInput={setSeed} />
        <Field id="seed-data" label="Data">
          <select id="seed-data" value={data} onChange={(e) => setData(e.currentTarget.value)}>
            <option value="realistic">Realistic</option>
            <option value="edge">Edge cases</option>
          </select>
        </Field>
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
      <div
        class={dragging ? 'dropzone dragging' : 'dropzone'}
        onDragOver={(e) => {
          e.preventDefault()
          if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy'
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault()
          setDragging(false)
          void load([...(e.dataTransfer?.files ?? [])])
        }}
      >
        <Field id="bundle-file" label="Load a reproduction bundle (its .snapshot.yaml or .json)" class="upload">
          <input
            id="bundle-file"
            type="file"
            multiple
            accept=".yaml,.yml,.json,.har,application/json,application/yaml"
            aria-describedby="bundle-hint"
            onChange={async (e) => {
              const input = e.currentTarget
              await load([...(input.files ?? [])])
              input.value = ''
            }}
          />
        </Field>
        <p id="bundle-hint" class="hint">
          Or drop the bundle's files here. Replaces this session's pets, rules, latency, seed, clock and rate limit.
        </p>
      </div>
    </Card>
  )
}
