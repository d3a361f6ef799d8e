import { remainingText, ruleText } from '../model/describe.js'
import { Card } from './parts.js'
import { presets } from '../model/presets.js'
import { RuleForm } from './rule-form.js'
import type { FaultRule } from '../types.js'

/** The session's fault rules: presets, the active rules, a form for any rule. */
export function FaultRules(props: {
  rules: readonly FaultRule[] | undefined
  operations: readonly string[]
  error: string | undefined
  onAdd: (body: object | string, label?: string) => Promise<boolean>
  onDelete: (id: number) => void
  onClear: () => void
}) {
  const rules = props.rules ?? []
  return (
    <Card
      id="rules-title"
      title="Fault rules"
      error={props.error}
      action={
        <button type="button" class="danger" onClick={props.onClear} disabled={rules.length === 0}>
          Clear rules
        </button>
      }
    >
      <div class="presets" role="group" aria-label="Presets">
        {presets.map((p) => (
          <button key={p.label} type="button" onClick={() => void props.onAdd(p.rule, p.label)}>
            {p.label}
          </button>
        ))}
      </div>
      {rules.length === 0 ? (
        <p class="muted empty-rules">No rules: every call is answered normally.</p>
      ) : (
        <ol class="rules" aria-label="Active rules">
          {rules.map((rule) => (
            <li key={rule.id}>
              <span class="rule-id">#{rule.id}</span>
              <span class={rule.breaksContract ? 'rule-text beyond-text' : 'rule-text'}>{ruleText(rule)}</span>
              <span class="rule-left">{remainingText(rule)}</span>
              <button
                type="button"
                class="link"
                aria-label={`Delete rule ${rule.id}`}
                onClick={() => props.onDelete(rule.id)}
              >
                Delete
              </button>
            </li>
          ))}
        </ol>
      )}
      <RuleForm operations={props.operations} onAdd={(request) => props.onAdd(request)} />
    </Card>
  )
}
