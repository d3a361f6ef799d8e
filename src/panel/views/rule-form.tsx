import { useState } from 'preact/hooks'
import { emptyRuleFields, ruleRequest, type RuleFields } from '../model/form-values.js'
import { Field, NumberField } from './parts.js'

const faultOptions = [
  ['connection_reset', 'Connection reset'],
  ['empty_response', 'Empty response'],
  ['malformed_body', 'Malformed body'],
  ['hang', 'Hang (until the client gives up)'],
  ['drip', 'Drip (body 64 bytes / 100 ms)'],
] as const

type TextName = 'answerHeaders' | 'answerBody' | 'whenHeaders' | 'whenQuery' | 'whenBody'

/**
 * Every field of a fault rule; empty fields are left out. What the server
 * refuses comes back in its words, so the form checks nothing itself.
 */
export function RuleForm(props: { operations: readonly string[]; onAdd: (request: string) => Promise<boolean> }) {
  const [fields, setFields] = useState<RuleFields>(emptyRuleFields)
  const set =
    <K extends keyof RuleFields>(name: K) =>
    (value: RuleFields[K]) =>
      setFields((current) => ({ ...current, [name]: value }))
  const number = (
    name: 'status' | 'delayMs' | 'times' | 'probability' | 'petId',
    label: string,
    placeholder: string,
  ) => (
    <NumberField
      id={`rule-${name}`}
      label={label}
      placeholder={placeholder}
      decimal={name === 'probability'}
      value={fields[name]}
      onInput={set(name)}
    />
  )
  const text = (name: TextName, label: string, placeholder: string, wide = true) => (
    <Field id={`rule-${name}`} label={label} class={wide ? 'wide' : undefined}>
      <textarea
        id={`rule-${name}`}
        rows={2}
        spellcheck={false}
        autocomplete="off"
        placeholder={placeholder}
        value={fields[name]}
        onInput={(e) => set(name)(e.currentTarget.value)}
      />
    </Field>
  )
  return (
    <form
      class="rule-form"
      aria-labelledby="rule-form-title"
      aria-describedby="rule-form-hint"
      onSubmit={async (e) => {
        e.preventDefault()
        if (await props.onAdd(ruleRequest(fields))) setFields(emptyRuleFields)
      }}
    >
      <h3 id="rule-form-title">New rule</h3>
      <p id="rule-form-hint" class="hint">
        A status, a fault or a delay (status and fault do not combine). The first matching rule applies.
      </p>
      <div class="fields">
        <Field id="rule-operation" label="Operation">
          <select
            id="rule-operation"
            value={fields.operation}
            onChange={(e) => set('operation')(e.currentTarget.value)}
          >
            <option value="">Any operation</option>
            {props.operations.map((op) => (
              <option key={op} value={op}>
                {op}
              </option>
            ))}
          </select>
        </Field>
        {number('status', 'Status', '400–599')}
        <Field id="rule-fault" label="Fault">
          <select id="rule-fault" value={fields.fault} onChange={(e) => set('fault')(e.currentTarget.value)}>
            <option value="">None</option>
            {faultOptions.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        {number('delayMs', 'Delay (ms)', '0–60000')}
        {number('times', 'Times', 'unlimited')}
        {number('probability', 'Probability', '0–1')}
        {number('petId', 'Pet id', 'any')}
      </div>
      <details class="more">
        <summary>Answer of its own</summary>
        <p class="hint">
          Sent instead of the mock's answer, with a status from 200 to 599. One the contract does not allow (another
          status or content type, a body its schema refuses) needs "Beyond the contract".
        </p>
        <div class="fields">
          {text('answerHeaders', 'Answer headers (Name: value a line)', 'Content-Type: text/html')}
          <Field id="rule-bodyKind" label="Body is">
            <select
              id="rule-bodyKind"
              value={fields.bodyKind}
              onChange={(e) => set('bodyKind')(e.currentTarget.value as RuleFields['bodyKind'])}
            >
              <option value="text">Text, as typed</option>
              <option value="json">JSON</option>
            </select>
          </Field>
          {text('answerBody', 'Answer body', '<html>…</html> or [{"id": 1, …}]')}
          <label class="check wide" for="rule-breaksContract">
            <input
              id="rule-breaksContract"
              type="checkbox"
              checked={fields.breaksContract}
              onChange={(e) => set('breaksContract')(e.currentTarget.checked)}
            />
            Beyond the contract (breaksContract): flagged wherever it is shown
          </label>
        </div>
      </details>
      <details class="more">
        <summary>Target one client</summary>
        <p class="hint">Every condition given must hold. Header names in any case; values exactly.</p>
        <div class="fields">
          <Field id="rule-apiKey" label="API key" class="span2">
            <input
              id="rule-apiKey"
              autocomplete="off"
              spellcheck={false}
              placeholder="the key, or its fingerprint"
              value={fields.apiKey}
              onInput={(e) => set('apiKey')(e.currentTarget.value)}
            />
          </Field>
          <Field id="rule-keyKind" label="Given as">
            <select
              id="rule-keyKind"
              value={fields.keyKind}
              onChange={(e) => set('keyKind')(e.currentTarget.value as RuleFields['keyKind'])}
            >
              <option value="key">Key</option>
              <option value="fingerprint">Fingerprint</option>
            </select>
          </Field>
          {text('whenHeaders', 'Request headers (Name: value a line)', 'User-Agent: mobile-app/1.0')}
          {text('whenQuery', 'Query (name=value a line)', 'status=sold')}
          {text('whenBody', 'Body fields (name: value a line)', 'name: Rex')}
        </div>
      </details>
      <button type="submit" class="primary">
        Add rule
      </button>
    </form>
  )
}
