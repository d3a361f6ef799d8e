import {
  beyondContractRule,
  bodyText,
  pathWithQuery,
  shapedByText,
  statusText,
  violationsText,
} from '../model/describe.js'
import { detailsId } from './requests-table.js'
import type { JournalEntry } from '../types.js'

function Headers(props: { headers: Record<string, string> | undefined; label: string }) {
  const entries = Object.entries(props.headers ?? {})
  if (entries.length === 0) return <p class="muted">No headers recorded.</p>
  return (
    <dl class="headers" aria-label={props.label}>
      {entries.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

function Body(props: { body: unknown; truncated: boolean | undefined; label: string }) {
  if (props.body === undefined) return <p class="muted">No body.</p>
  return (
    <>
      {/* A scrollable region must be reachable by keyboard. */}
      <pre class="body" tabIndex={0} aria-label={props.label}>
        {bodyText(props.body)}
      </pre>
      {props.truncated && <p class="muted">Cut at 4096 characters.</p>}
    </>
  )
}

function ResponsePart({ entry }: { entry: JournalEntry }) {
  const response = entry.response
  if (!response) return <p>No answer: the connection was reset.</p>
  return (
    <>
      <p class="status-line">
        Status <strong>{statusText(response.status)}</strong>
      </p>
      <h5>Headers</h5>
      <Headers headers={response.headers} label="Response headers" />
      <h5>Body</h5>
      <Body body={response.body} truncated={response.bodyTruncated} label="Response body" />
    </>
  )
}

/** The selected request and its answer. */
export function RequestDetails({ entry }: { entry: JournalEntry | undefined }) {
  return (
    <section id={detailsId} class="details" aria-labelledby="details-title">
      {entry ? (
        <>
          <h3 id="details-title">
            <span class="method">{entry.method}</span> {pathWithQuery(entry)}
            <span class="muted"> · request {entry.id}</span>
          </h3>
          {entry.shapedBy && <p class="shaping">Shaped by {shapedByText(entry.shapedBy)}</p>}
          {beyondContractRule(entry.shapedBy) !== undefined && (
            <p class="beyond" role="note">
              <strong>Beyond the contract:</strong> rule {beyondContractRule(entry.shapedBy)} sent this answer, marked
              breaksContract. It is not the provider's behaviour.
            </p>
          )}
          {entry.apiKeyFingerprint && (
            <p class="shaping">
              API key fingerprint <code>{entry.apiKeyFingerprint}</code>
            </p>
          )}
          {entry.violations && (
            <div class="violations" role="note">
              <h4>{violationsText(entry.violations)} (--proxy)</h4>
              <ul>
                {entry.violations.map((violation) => (
                  <li>{violation}</li>
                ))}
              </ul>
            </div>
          )}
          <div class="details-grid">
            <div>
              <h4>Request</h4>
              <h5>Headers</h5>
              <Headers headers={entry.headers} label="Request headers" />
              <h5>Body</h5>
              <Body body={entry.body} truncated={entry.bodyTruncated} label="Request body" />
            </div>
            <div>
              <h4>Response</h4>
              <ResponsePart entry={entry} />
            </div>
          </div>
        </>
      ) : (
        <h3 id="details-title" class="muted placeholder">
          Select a request to see what was sent and answered.
        </h3>
      )}
    </section>
  )
}
