import { useState } from 'preact/hooks'
import { emptyRuleFields, ruleBody, type RuleFields } from '../model/form-values.js'
import { Field, NumberField } from './parts.js'

const faultOptions = [
  ['connection_reset', 'Connection reset'],
  ['empty_response', 'Empty response'],
  ['malformed_body', 'Malformed body'],
] as const

/**
 * Every field of a fault rule; empty fields are left out. What the server
 * refuses comes back in its words, so the form checks nothing itself.
 */
export function RuleForm(props: {
  operations: readonly string[]
  onAdd: (body: Record<string, unknown>) => Promise<boolean>
}) {
  const [fields, setFields] = useState<RuleFields>(emptyRuleFields)
  const set = (name: keyof RuleFields) => (value: string) => setFields((current) => ({ ...current, [name]: value }))
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
            {faultOptions.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </Field>
        {number('delayMs', 'Delay (ms)', '0–60000')}
        {number('times', 'Times', 'unlimited')}
        {number('probability', 'Probability', '0–1')}
        {number('petId', 'Pet id', 'any')}
      </div>
      <button type="submit" class="primary">
        Add rule
      </button>
    </form>
  )
}
