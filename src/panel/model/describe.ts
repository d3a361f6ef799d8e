import type { ClockView, FaultRule, JournalEntry, RateLimitView, Shaping } from '../types.js'

const pad = (n: number, width = 2): string => String(n).padStart(width, '0')

/** `14:03:22.512`, in the browser's time zone. */
export const clockTime = (iso: string): string => {
  const d = new Date(iso)
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

/** `20250301T140322Z`: the stamp of downloaded file names (as the server names them). */
export const fileStamp = (date: Date): string =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')

/** The path with its query string, as the client sent it (parameters in the journal's order). */
export const pathWithQuery = (entry: Pick<JournalEntry, 'path' | 'query'>): string => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(entry.query)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, v)
  }
  const query = params.toString()
  return query ? `${entry.path}?${query}` : entry.path
}

/** `ok`, `redirect`, `client`, `server` or `reset`: the colour class of a status. */
export const statusKind = (status: number): string =>
  status === 0 ? 'reset' : status < 300 ? 'ok' : status < 400 ? 'redirect' : status < 500 ? 'client' : 'server'

/** What the status cell says: the code, or `reset` when no answer was sent. */
export const statusText = (status: number): string => (status === 0 ? 'reset' : String(status))

/** `1 rule`, `3 rules`. */
export const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`

/** `3 ms`, `0.42 ms`. */
export const duration = (ms: number): string => `${ms < 10 ? Math.round(ms * 100) / 100 : Math.round(ms)} ms`

const faultWords = (fault: string): string => fault.replace(/_/g, ' ')

const shapingText = (s: Shaping): string => {
  if (s.by === 'latency') return `latency ${s.delayMs} ms`
  const parts: string[] = []
  if (s.status !== undefined) parts.push(String(s.status))
  if (s.by === 'fault' && s.fault !== undefined) parts.push(faultWords(s.fault))
  if (s.by === 'fault' && s.custom) parts.push('own answer')
  if (s.by === 'fault' && s.breaksContract) parts.push(beyondContract)
  if (s.delayMs !== undefined) parts.push(`+${s.delayMs} ms`)
  const what =
    s.by !== 'fault'
      ? 'override'
      : s.timeline
        ? `timeline ${s.timeline.name} phase ${s.timeline.phase}`
        : `rule ${s.ruleId}`
  return parts.length > 0 ? `${what}: ${parts.join(', ')}` : what
}

/** What the panel calls an answer a rule marked breaksContract: never to be taken for the provider's. */
export const beyondContract = 'beyond the contract'

/** The rule that answered beyond the contract, if one did (see {@link beyondContract}). */
export const beyondContractRule = (shapedBy: readonly Shaping[] | undefined): number | undefined => {
  const shaping = shapedBy?.find((s) => s.by === 'fault' && s.breaksContract)
  return shaping?.by === 'fault' ? shaping.ruleId : undefined
}

/** How an answer was shaped: `rule 2: 503, latency 120 ms`; empty when it was not. */
export const shapedByText = (shapedBy: readonly Shaping[] | undefined): string =>
  (shapedBy ?? []).map(shapingText).join(', ')

const percent = (p: number): string => `${Math.round(p * 1000) / 10} %`

/** The conditions of a rule, in words: `API key sha256:4c5dc9b77089, user-agent: app/1, status=sold, name = "Rex"`. */
export const whenText = (when: FaultRule['when']): string => {
  if (when === undefined) return ''
  const parts: string[] = []
  const key = when.apiKey
  if (typeof key === 'string') parts.push(`API key ${key.length > 6 ? `${key.slice(0, 4)}…` : key}`)
  else if (key !== undefined) parts.push(`API key fingerprint ${key.fingerprint}`)
  for (const [name, value] of Object.entries(when.headers ?? {})) parts.push(`${name.toLowerCase()}: ${value}`)
  for (const [name, value] of Object.entries(when.query ?? {})) parts.push(`${name}=${value}`)
  for (const [name, value] of Object.entries(when.body ?? {})) parts.push(`body ${name} = ${JSON.stringify(value)}`)
  return parts.join(', ')
}

/** What a rule does, in words: `createPet answers 503 after 200 ms, 30 % of calls`. */
export const ruleText = (rule: FaultRule): string => {
  const target = rule.operation ?? 'Every operation'
  const pet = rule.petId !== undefined ? ` of pet ${rule.petId}` : ''
  const own = rule.body !== undefined || rule.headers !== undefined
  const type = Object.entries(rule.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1]
  const answer = own ? ` (own answer${type ? `, ${type}` : ''}${rule.breaksContract ? `, ${beyondContract}` : ''})` : ''
  const effect =
    rule.status !== undefined
      ? `answers ${rule.status}${answer}`
      : rule.fault !== undefined
        ? `fails: ${faultWords(rule.fault)}`
        : `is slowed by ${rule.delayMs} ms`
  const delay =
    rule.delayMs !== undefined && (rule.status ?? rule.fault) !== undefined
      ? rule.fault === 'hang'
        ? `, held ${rule.delayMs} ms at most`
        : ` after ${rule.delayMs} ms`
      : ''
  const chance = rule.probability !== undefined ? `, ${percent(rule.probability)} of calls` : ''
  const when = whenText(rule.when)
  return `${target}${pet} ${effect}${delay}${chance}${when ? ` when ${when}` : ''}`
}

/** `2 of 3 left`, or `until removed`. */
export const remainingText = (rule: FaultRule): string =>
  rule.remaining !== undefined ? `${rule.remaining} of ${rule.times} left` : 'until removed'

/** A body for display: JSON pretty-printed, text as it is. */
export const bodyText = (body: unknown): string =>
  typeof body === 'string' ? body : (JSON.stringify(body, null, 2) ?? String(body))

/** With --proxy, how many contract violations an exchange had: `2 contract violations`; empty when none. */
export const violationsText = (violations: readonly string[] | undefined): string =>
  violations === undefined || violations.length === 0
    ? ''
    : `${violations.length} contract violation${violations.length === 1 ? '' : 's'}`

/** What the clock shows, in words: `real time`, or the instant and whether it stands still. */
export const clockText = (clock: ClockView | undefined): string =>
  clock === undefined ? '–' : clock.real ? 'Real time' : `${clock.now}, ${clock.frozen ? 'frozen' : 'advancing'}`

/** The rate limit in words: `100/m per API key, 3 keys counted`, or `No limit`. */
export const rateText = (view: RateLimitView | undefined): string =>
  view === undefined
    ? '–'
    : view.rate === null
      ? 'No limit'
      : `${view.rate} per API key, ${view.keys} key${view.keys === 1 ? '' : 's'} counted`
