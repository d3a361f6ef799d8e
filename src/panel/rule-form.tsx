import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { emptyRuleFields, ruleBody, type RuleFields } from './form-values.js'

const faultOptions = [
  ['connection_reset', 'Connection reset'],
  ['empty_response', 'Empty response'],
  ['malformed_body', 'Malformed body'],
] as const

function Field(props: { id: string; label: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
    </div>
  )
}

type Setter = (name: keyof RuleFields) => (e: { currentTarget: { value: string } }) => void

function NumberInput(props: {
  name: 'status' | 'delayMs' | 'times' | 'probability' | 'petId'
  label: string
  placeholder: string
  fields: RuleFields
  set: Setter
}) {
  const id = `rule-${props.name}`
  return (
    <Field id={id} label={props.label}>
      <input
        id={id}
        inputMode={props.name === 'probability' ? 'decimal' : 'numeric'}
        autocomplete="off"
        placeholder={props.placeholder}
        value={props.fields[props.name]}
        onInput={props.set(props.name)}
      />
    </Field>
  )
}

/**
 * Every field of a fault rule; empty fields are left out. What the server
 * refuses comes back in its words, so the form checks nothing itself.
 */
export function RuleForm(props: {
  operations: readonly string[]
  onAdd: (body: Record<string, unknown>) => Promise<boolean>
}) {
  const [fields, setFields] = useState<RuleFields>(emptyRuleFields)
  const set: Setter = (name) => (e) => setFields((current) => ({ ...current, [name]: e.currentTarget.value }))
  const common = { fields, set }
  return (
    <form
      class="rule-form"
      aria-labelledby="rule-form-title"
      aria-describedby="rule-form-hint"
      onSubmit={async (e) => {
        e.preventDefault()
        if (await props.onAdd(ruleBody(fields))) setFields(emptyRuleFields)
      }}
    >
      <h3 id="rule-form-title">New rule</h3>
      <p id="rule-form-hint" class="hint">
        A status, a fault or a delay (status and fault do not combine). The first matching rule applies.
      </p>
      <div class="fields">
        <Field id="rule-operation" label="Operation">
          <select id="rule-operation" value={fields.operation} onChange={set('operation')}>
            <option value="">Any operation</option>
            {props.operations.map((op) => (
              <option key={op} value={op}>
                {op}
              </option>
            ))}
          </select>
        </Field>
        <NumberInput name="status" label="Status" placeholder="400–599" {...common} />
        <Field id="rule-fault" label="Fault">
          <select id="rule-fault" value={fields.fault} onChange={set('fault')}>
            <option value="">None</option>
            {faultOptions.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </Field>
        <NumberInput name="delayMs" label="Delay (ms)" placeholder="0–60000" {...common} />
        <NumberInput name="times" label="Times" placeholder="unlimited" {...common} />
        <NumberInput name="probability" label="Probability" placeholder="0–1" {...common} />
        <NumberInput name="petId" label="Pet id" placeholder="any" {...common} />
      </div>
      <button type="submit" class="primary">
        Add rule
      </button>
    </form>
  )
}
