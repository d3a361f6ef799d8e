import { useState } from 'preact/hooks'
import { Card, Field } from './parts.js'
import { timelineAxis } from '../model/timeline-axis.js'
import type { Timeline, TimelineList } from '../types.js'

/** The presets the server makes (PUT /__admin/timelines/{name} with `{ "preset": … }`), with their defaults. */
const presetNames = ['outage', 'flapping', 'slow-degradation', 'getpet-brownout'] as const

const when = (iso: string | null | undefined): string => (iso ? iso.replace('T', ' ').replace(/\.000Z$/, 'Z') : '—')

function TimelineRow(props: { timeline: Timeline; now: string; onStop: (name: string) => void }) {
  const { timeline } = props
  const axis = timelineAxis(timeline, props.now)
  const current = timeline.current
  return (
    <li class="timeline">
      <div class="timeline-head">
        <span class="timeline-name">{timeline.name}</span>
        <span class={`timeline-state state-${timeline.state}`}>{timeline.state}</span>
        <button
          type="button"
          class="link"
          aria-label={`Stop timeline ${timeline.name}`}
          onClick={() => props.onStop(timeline.name)}
        >
          Stop
        </button>
      </div>
      <div class="axis" role="list" aria-label={`Phases of ${timeline.name}`}>
        {axis.phases.map((phase) => (
          <div
            key={phase.index}
            role="listitem"
            class={`phase${phase.quiet ? ' quiet' : ''}${phase.current ? ' current' : ''}`}
            style={{ left: `${phase.left * 100}%`, width: `${phase.width * 100}%` }}
            title={`Phase ${phase.index}: ${phase.label}`}
            aria-current={phase.current ? 'step' : undefined}
          >
            <span>{phase.label}</span>
          </div>
        ))}
        {axis.now !== undefined && (
          <div
            class="axis-now"
            style={{ left: `${axis.now * 100}%` }}
            aria-label="The clock's now"
            title={`now ${when(props.now)}`}
          />
        )}
      </div>
      <p class="muted timeline-facts">
        {current
          ? `Phase ${current.phase} since ${when(current.startedAt)}; next ${current.nextAt ? `at ${when(current.nextAt)}` : 'never'}${timeline.repeat ? `; loop ${current.cycle}` : ''}`
          : timeline.state === 'pending'
            ? `Starts at ${when(timeline.startsAt)}`
            : 'Ended'}
      </p>
    </li>
  )
}

/**
 * The session's fault timelines (issue 43) on a time axis with the clock's now, the phase in force
 * highlighted; a preset picker starts one, Stop removes it.
 */
export function TimelinesPanel(props: {
  list: TimelineList | undefined
  error: string | undefined
  onStart: (name: string, preset: string) => Promise<boolean>
  onStop: (name: string) => void
}) {
  const [preset, setPreset] = useState<string>(presetNames[0])
  const [name, setName] = useState('')
  const timelines = props.list?.timelines ?? []
  return (
    <Card id="timelines-title" title="Timelines" error={props.error} action={null}>
      <p class="muted clock-line" data-testid="timelines-now">
        Clock: {when(props.list?.now)}
      </p>
      {timelines.length === 0 ? (
        <p class="muted">No timeline: start a preset, or PUT /__admin/timelines/&#123;name&#125;.</p>
      ) : (
        <ol class="timelines" aria-label="Timelines">
          {timelines.map((t) => (
            <TimelineRow key={t.name} timeline={t} now={props.list!.now} onStop={props.onStop} />
          ))}
        </ol>
      )}
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault()
          void props.onStart(name.trim() || preset, preset)
        }}
      >
        <Field id="timeline-preset" label="Preset">
          <select id="timeline-preset" value={preset} onChange={(e) => setPreset(e.currentTarget.value)}>
            {presetNames.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </Field>
        <Field id="timeline-name" label="Name">
          <input
            id="timeline-name"
            autocomplete="off"
            spellcheck={false}
            placeholder={preset}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </Field>
        <button type="submit">Start</button>
      </form>
    </Card>
  )
}
