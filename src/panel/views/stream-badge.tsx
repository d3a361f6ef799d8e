import type { StreamState } from '../api/journal-stream.js'

const words: Record<StreamState['state'], string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  locked: 'Locked',
}

/** Whether the table is live: the state of the event stream, with the reason when it is not. */
export function StreamBadge(props: { stream: StreamState; onUnlock: () => void }) {
  const { stream } = props
  const reason = 'reason' in stream ? stream.reason : undefined
  return (
    <span class={`stream stream-${stream.state}`} title={reason}>
      <span class="dot" aria-hidden="true" />
      {words[stream.state]}
      {reason && <span class="sr-only">: {reason}</span>}
      {stream.state === 'locked' && (
        <button type="button" class="link" onClick={props.onUnlock}>
          Enter admin token
        </button>
      )}
    </span>
  )
}
