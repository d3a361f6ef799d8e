/** One server-sent event, as the parser hands it over. */
export interface SseEvent {
  event: string
  data: string
  id?: string
  /** The reconnection time the server asked for, ms. */
  retry?: number
}

/**
 * An incremental text/event-stream parser (the WHATWG algorithm, without
 * the BOM): feed it decoded text as it arrives, get back the complete events.
 * Comments (keep-alives) are dropped; a `retry:` alone is reported as an
 * event with no data so the caller can adopt it.
 */
export class SseParser {
  #buffer = ''
  #event = ''
  #data: string[] = []
  #id: string | undefined
  #retry: number | undefined

  push(text: string): SseEvent[] {
    this.#buffer += text
    const events: SseEvent[] = []
    for (let end = this.#lineEnd(); end !== -1; end = this.#lineEnd()) {
      const line = this.#buffer.slice(0, end)
      const crlf = this.#buffer[end] === '\r' && this.#buffer[end + 1] === '\n'
      this.#buffer = this.#buffer.slice(end + (crlf ? 2 : 1))
      const event = this.#line(line)
      if (event) events.push(event)
    }
    return events
  }

  // A lone trailing '\r' may be the first half of '\r\n': wait for more text.
  #lineEnd(): number {
    const match = /\r\n|\r(?=[^\n])|\n/.exec(this.#buffer)
    return match ? match.index : -1
  }

  #line(line: string): SseEvent | undefined {
    if (line === '') return this.#dispatch()
    if (line.startsWith(':')) return undefined
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') this.#event = value
    else if (field === 'data') this.#data.push(value)
    else if (field === 'id' && !value.includes('\0')) this.#id = value
    else if (field === 'retry' && /^\d+$/.test(value)) this.#retry = Number(value)
    return undefined
  }

  #dispatch(): SseEvent | undefined {
    const hasData = this.#data.length > 0
    const event: SseEvent = { event: this.#event || 'message', data: this.#data.join('\n') }
    if (this.#id !== undefined) event.id = this.#id
    if (this.#retry !== undefined) event.retry = this.#retry
    const report = hasData || this.#retry !== undefined
    this.#event = ''
    this.#data = []
    this.#retry = undefined
    return report ? event : undefined
  }
}
