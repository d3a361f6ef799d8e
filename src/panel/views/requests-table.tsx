import {
  beyondContractRule,
  clockTime,
  duration,
  pathWithQuery,
  shapedByText,
  statusKind,
  statusText,
  violationsText,
} from '../model/describe.js'
import { entryKey } from '../model/rows.js'
import type { JournalEntry } from '../types.js'

/** The id of the details region the rows control. */
export const detailsId = 'request-details'

const moves: Record<string, (row: Element) => Element | null | undefined> = {
  ArrowDown: (row) => row.nextElementSibling,
  ArrowUp: (row) => row.previousElementSibling,
  Home: (row) => row.parentElement?.firstElementChild,
  End: (row) => row.parentElement?.lastElementChild,
}

/**
 * The journal, newest on top. Each row's first cell is a button that shows
 * its details; one row is in the tab order, the arrow keys, Home and End
 * move between rows.
 */
export function RequestsTable(props: {
  rows: readonly JournalEntry[]
  selected: string | undefined
  onSelect: (key: string) => void
}) {
  const { rows, selected, onSelect } = props
  const focusable = rows.some((e) => entryKey(e) === selected) ? selected : rows[0] && entryKey(rows[0])
  const onKeyDown = (e: KeyboardEvent) => {
    const move = moves[e.key]
    const row = (e.currentTarget as HTMLElement).closest('tr')
    const target = move && row ? move(row) : undefined
    const button = target?.querySelector<HTMLButtonElement>('button[data-key]')
    if (!button) return
    e.preventDefault()
    button.focus()
    onSelect(button.dataset['key']!)
  }
  return (
    <div class="table-scroll">
      <table class="requests" aria-describedby="requests-hint">
        <caption class="sr-only">Requests</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Method</th>
            <th scope="col">Path</th>
            <th scope="col">Operation</th>
            <th scope="col">Status</th>
            <th scope="col" class="num">
              Duration
            </th>
            <th scope="col">Shaped by</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={7} class="empty">
                No requests yet. Calls to the API of this session appear here as they are answered.
              </td>
            </tr>
          )}
          {rows.map((entry) => {
            const key = entryKey(entry)
            const path = pathWithQuery(entry)
            const time = clockTime(entry.time)
            const isSelected = key === selected
            return (
              <tr key={key} class={isSelected ? 'selected' : undefined} onClick={() => onSelect(key)}>
                <td>
                  <button
                    type="button"
                    class="row-button"
                    data-key={key}
                    tabIndex={key === focusable ? 0 : -1}
                    aria-expanded={isSelected}
                    aria-controls={detailsId}
                    aria-label={`${time} ${entry.method} ${path}, status ${statusText(entry.status)}`}
                    onKeyDown={onKeyDown}
                  >
                    {time}
                  </button>
                </td>
                <td class="method">{entry.method}</td>
                <td class="path" title={path}>
                  {path}
                </td>
                <td>{entry.operation ?? <span class="muted">none</span>}</td>
                <td>
                  <span class={`status status-${statusKind(entry.status)}`}>{statusText(entry.status)}</span>
                </td>
                <td class="num">{duration(entry.durationMs)}</td>
                <td class={beyondContractRule(entry.shapedBy) === undefined ? 'shaped' : 'shaped beyond-text'}>
                  {[shapedByText(entry.shapedBy), violationsText(entry.violations)].filter(Boolean).join('; ')}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <p id="requests-hint" class="sr-only">
        Newest first. Choose a request to see its details; the arrow keys move between requests.
      </p>
    </div>
  )
}
