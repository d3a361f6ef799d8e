import { useState } from 'preact/hooks'
import { Card, Field } from './parts.js'
import type { CoverageReport } from '../types.js'

/**
 * The session's contract coverage (GET /__admin/coverage): each documented
 * response, covered or not, with its count and how many were injected; the
 * statuses answered beyond the contract; and the session's Pact file.
 */
export function CoveragePanel(props: {
  coverage: CoverageReport | undefined
  error: string | undefined
  onClear: () => void
  onPact: (consumer: string) => Promise<boolean>
}) {
  const [consumer, setConsumer] = useState('my-app')
  const report = props.coverage
  const documented = report?.responses.filter((r) => r.documented) ?? []
  const beyond = report?.responses.filter((r) => !r.documented) ?? []
  const sent = report?.inputs.filter((i) => i.covered).length ?? 0
  return (
    <Card
      id="coverage-title"
      title="Contract coverage"
      error={props.error}
      action={
        <button type="button" onClick={props.onClear} disabled={report === undefined || report.requests === 0}>
          Clear coverage
        </button>
      }
    >
      <p class="coverage-headline">
        {report === undefined
          ? '–'
          : `${report.covered} of ${report.total} documented responses covered (${report.percent} %), ${report.requests.toLocaleString('en')} requests`}
      </p>
      {report !== undefined && (
        <meter
          class="coverage-meter"
          min={0}
          max={report.total}
          value={report.covered}
          aria-label="Documented responses covered"
        />
      )}
      <ul class="coverage" aria-label="Documented responses">
        {documented.map((r) => (
          <li key={`${r.operation} ${r.status}`} class={r.covered ? 'covered' : 'uncovered'}>
            <span class={`status ${r.covered ? 'status-ok' : 'status-server'}`}>{r.status}</span>
            <span class="coverage-op">{r.operation}</span>
            <span class="coverage-count">
              {r.covered
                ? `${r.requests.toLocaleString('en')}${r.injected > 0 ? `, ${r.injected} injected` : ''}`
                : 'not covered'}
            </span>
          </li>
        ))}
      </ul>
      {beyond.length > 0 && (
        <p class="muted coverage-beyond">
          Beyond the contract:{' '}
          {beyond
            .map((r) => `${r.operation} ${r.status}${r.breaksContract ? ' breaksContract' : ''} (${r.requests})`)
            .join(', ')}
        </p>
      )}
      {report !== undefined && (
        <p class="muted coverage-inputs">
          Inputs: {sent} of {report.inputs.length} classes sent
          {sent < report.inputs.length &&
            `; not sent: ${report.inputs
              .filter((i) => !i.covered)
              .map((i) => `${i.operation} ${i.description}`)
              .join('; ')}`}
        </p>
      )}
      <form
        class="pact-form"
        onSubmit={(e) => {
          e.preventDefault()
          void props.onPact(consumer.trim())
        }}
      >
        <Field id="pact-consumer" label="Consumer of the Pact file">
          <input
            id="pact-consumer"
            autocomplete="off"
            value={consumer}
            onInput={(e) => setConsumer(e.currentTarget.value)}
          />
        </Field>
        <button type="submit">Download Pact file</button>
      </form>
    </Card>
  )
}
