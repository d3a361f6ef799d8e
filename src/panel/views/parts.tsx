import type { ComponentChildren } from 'preact'

/** A labelled control: the label above it, tied by id. */
export function Field(props: { id: string; label: string; class?: string; children: ComponentChildren }) {
  return (
    <div class={props.class ? `field ${props.class}` : 'field'}>
      <label for={props.id}>{props.label}</label>
      {props.children}
    </div>
  )
}

/** A labelled text input for a number, kept as typed (the server judges it). */
export function NumberField(props: {
  id: string
  label: string
  value: string
  onInput: (value: string) => void
  placeholder?: string
  decimal?: boolean
}) {
  return (
    <Field id={props.id} label={props.label}>
      <input
        id={props.id}
        inputMode={props.decimal ? 'decimal' : 'numeric'}
        autocomplete="off"
        placeholder={props.placeholder}
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </Field>
  )
}

/** A failure, in the server's words. */
export function Failure({ message }: { message: string | undefined }) {
  if (!message) return null
  return (
    <p class="error" role="alert">
      {message}
    </p>
  )
}

/** A titled card of the side column: its heading, its main action, its last failure. */
export function Card(props: {
  id: string
  title: string
  action: ComponentChildren
  error: string | undefined
  children: ComponentChildren
}) {
  return (
    <section class="card" aria-labelledby={props.id}>
      <div class="card-head">
        <h2 id={props.id}>{props.title}</h2>
        {props.action}
      </div>
      <Failure message={props.error} />
      {props.children}
    </section>
  )
}
