import { useCallback, useEffect, useMemo, useState } from 'preact/hooks'
import { adminClient } from './api/admin-client.js'
import { fileStamp } from './model/describe.js'
import { dispositionFilename, downloadName } from './model/download.js'
import { FaultRules } from './views/fault-rules.js'
import { useAction, useResource, useThrottled } from './hooks.js'
import { Failure } from './views/parts.js'
import { RequestDetails } from './views/request-details.js'
import { RequestsTable } from './views/requests-table.js'
import { saveFile } from './model/save-file.js'
import { entryKey } from './model/rows.js'
import { SessionPicker } from './views/session-picker.js'
import { fileContentType } from './model/pet-state.js'
import { StatePanel } from './views/state-panel.js'
import { CoveragePanel } from './views/coverage-panel.js'
import { StreamBadge } from './views/stream-badge.js'
import { TokenDialog } from './views/token-dialog.js'
import type { TokenBroker } from './api/token-broker.js'
import { TimePanel } from './views/time-panel.js'
import type { ClockView, CoverageReport, FaultRule, JournalEntry, Pet, RateLimitView, SessionSummary } from './types.js'
import { useJournal } from './api/use-journal.js'

/** What the page tells the panel about its server (data attributes of the page). */
export interface PanelProps {
  operations: readonly string[]
  version: string
  tokens: TokenBroker
  /** The session shown first. */
  session: string
  /** Remembers the session chosen (sessionStorage). */
  remember: (session: string) => void
}

// The session list has no feed of its own: polled while the page is visible.
const sessionsPollMs = 3000

const changedRules = (entries: readonly JournalEntry[]) =>
  entries.some((e) => e.shapedBy?.some((s) => s.by === 'fault'))
const changedPets = (entries: readonly JournalEntry[]) =>
  entries.some((e) => e.operation === 'createPet' && e.status === 201)

/** The QA panel: session picker, live requests, fault rules and state of one session. */
export function App(props: PanelProps) {
  const { tokens } = props
  const [session, setSession] = useState(props.session)
  const [selected, setSelected] = useState<string>()
  const [notice, setNotice] = useState('')
  const client = useMemo(() => adminClient(session, tokens), [session, tokens])

  // Sessions are the server's, not the session's: kept (not blanked) when another one is picked.
  const sessions = useResource(
    () => client.json<{ sessions: SessionSummary[] }>('/sessions').then((b) => b.sessions),
    tokens,
  )
  const rules = useResource(() => client.json<{ faults: FaultRule[] }>('/faults').then((b) => b.faults), client)
  const pets = useResource(() => client.json<{ pets: Pet[] }>('/state').then((b) => b.pets), client)
  const coverage = useResource(() => client.json<CoverageReport>('/coverage'), client)
  const reloadCoverage = useThrottled(() => void coverage.reload(), 1000)
  const clock = useResource(() => client.json<ClockView>('/clock'), client)
  const rate = useResource(() => client.json<RateLimitView>('/rate-limit'), client)
  const reloadRules = useThrottled(() => void rules.reload(), 300)
  const reloadPets = useThrottled(() => void pets.reload(), 1000)
  const reloadSessions = useThrottled(() => void sessions.reload(), 1000)
  // The keys a rate limit counts, and a limit or clock set by another client, change with requests.
  const reloadTime = useThrottled(() => {
    void clock.reload()
    void rate.reload()
  }, 1000)
  const journal = useJournal(client, tokens, (entries) => {
    if (changedRules(entries)) reloadRules()
    if (changedPets(entries)) reloadPets()
    reloadCoverage()
    reloadSessions()
    reloadTime()
  })

  const requestsAction = useAction()
  const rulesAction = useAction()
  const stateAction = useAction()
  const coverageAction = useAction()
  const timeAction = useAction()

  const notify = useCallback((text: string) => setNotice(text), [])
  useEffect(() => {
    if (notice === '') return
    const timer = setTimeout(() => setNotice(''), 6000)
    return () => clearTimeout(timer)
  }, [notice])

  const reloadAll = useCallback(() => {
    void sessions.reload()
    void rules.reload()
    void pets.reload()
    void coverage.reload()
    void clock.reload()
    void rate.reload()
  }, [sessions.reload, rules.reload, pets.reload, coverage.reload, clock.reload, rate.reload])

  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === 'visible' && void sessions.reload(), sessionsPollMs)
    return () => clearInterval(timer)
  }, [sessions.reload])

  // A token given after a refusal: load again what was refused.
  useEffect(() => {
    let active = true
    const wait = (): void => void tokens.nextToken().then(() => active && (reloadAll(), wait()))
    wait()
    return () => {
      active = false
    }
  }, [tokens, reloadAll])

  const switchSession = (name: string) => {
    setSession(name)
    setSelected(undefined)
    props.remember(name)
    reloadSessions()
  }

  // A rule from the form comes as its request text (a JSON answer body spliced in as typed: form-values.ts).
  const addRule = (body: object | string, label?: string) =>
    rulesAction.run(async () => {
      const res =
        typeof body === 'string'
          ? await client.request('/faults', {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body,
            })
          : await client.send('POST', '/faults', body)
      const rule = (await res.json()) as FaultRule
      await rules.reload()
      reloadSessions()
      notify(`Rule ${rule.id} added${label ? `: ${label}` : ''}.`)
    })
  const deleteRule = (id: number) =>
    rulesAction.run(async () => {
      await client.send('DELETE', `/faults/${id}`)
      await rules.reload()
      notify(`Rule ${id} deleted.`)
    })
  const clearRules = () =>
    rulesAction.run(async () => {
      await client.send('DELETE', '/faults')
      await rules.reload()
      notify('Every rule of this session removed.')
    })

  const clearRequests = () =>
    requestsAction.run(async () => {
      await client.send('DELETE', '/requests')
      journal.clear()
      setSelected(undefined)
      notify('Requests cleared.')
    })
  const downloadHar = () =>
    requestsAction.run(async () => {
      const res = await client.request('/requests.har')
      const name = dispositionFilename(res.headers.get('Content-Disposition'))
      saveFile(await res.blob(), name ?? downloadName(session, fileStamp(new Date()), '.har'))
      notify('HAR downloaded.')
    })
  const downloadBundle = () =>
    requestsAction.run(async () => {
      const stamp = fileStamp(new Date())
      const [snapshot, har] = await Promise.all([client.request('/snapshot'), client.request('/requests.har')])
      const [snapshotBlob, harBlob] = await Promise.all([snapshot.blob(), har.blob()])
      saveFile(snapshotBlob, downloadName(session, stamp, '.snapshot.yaml'))
      saveFile(harBlob, downloadName(session, stamp, '.har'))
      notify('Bundle downloaded: the snapshot and the HAR.')
    })

  const reset = () =>
    stateAction.run(async () => {
      await client.send('POST', '/reset')
      journal.clear()
      setSelected(undefined)
      reloadAll()
      notify(`Session ${session} reset.`)
    })
  const seed = (body: Record<string, unknown>) =>
    stateAction.run(async () => {
      await client.send('POST', '/seed', body)
      await pets.reload()
      reloadSessions()
      notify(
        `Pets replaced by ${String(body['count'])} generated ones${body['data'] === 'edge' ? ' (edge cases)' : ''}.`,
      )
    })
  const upload = (file: File) =>
    stateAction.run(async () => {
      await client.request('/state', {
        method: 'PUT',
        headers: { 'Content-Type': fileContentType(file.name) },
        body: await file.text(),
      })
      await pets.reload()
      reloadSessions()
      notify(`Pets replaced from ${file.name}.`)
    })

  const clearCoverage = () =>
    coverageAction.run(async () => {
      await client.send('DELETE', '/coverage')
      await coverage.reload()
      notify('Coverage counts cleared.')
    })
  const downloadPact = (consumer: string) =>
    coverageAction.run(async () => {
      const res = await client.request(`/pact?consumer=${encodeURIComponent(consumer)}`)
      const pact = (await res.json()) as { consumer: { name: string }; provider: { name: string } }
      const blob = new Blob([`${JSON.stringify(pact, null, 2)}\n`], { type: 'application/json' })
      saveFile(blob, `${pact.consumer.name}-${pact.provider.name}.json`)
      notify('Pact file downloaded.')
    })

  const loadBundle = (file: File) =>
    stateAction.run(async () => {
      await client.request('/snapshot', {
        method: 'PUT',
        headers: { 'Content-Type': fileContentType(file.name) },
        body: await file.text(),
      })
      reloadAll()
      notify(`Bundle loaded from ${file.name}: pets, rules, latency, seed, clock and rate limit replaced.`)
    })

  const setClock = (body: { now?: string; frozen: boolean }) =>
    timeAction.run(async () => {
      await client.send('PUT', '/clock', body)
      await clock.reload()
      notify('Clock set.')
    })
  const realTime = () =>
    timeAction.run(async () => {
      await client.send('DELETE', '/clock')
      await clock.reload()
      notify('Clock back to real time.')
    })
  const setRate = (text: string) =>
    timeAction.run(async () => {
      await client.send('PUT', '/rate-limit', { rate: text })
      await rate.reload()
      notify(`Rate limit set to ${text}.`)
    })
  const noLimit = () =>
    timeAction.run(async () => {
      await client.send('DELETE', '/rate-limit')
      await rate.reload()
      notify('Rate limit off.')
    })

  const entry = journal.rows.find((e) => entryKey(e) === selected)
  return (
    <>
      <a class="skip" href="#requests-title">
        Skip to requests
      </a>
      <header class="topbar">
        <div class="brand">
          <img src="/__admin/favicon.svg" alt="" width={24} height={24} />
          <span class="name">petstore-mock</span>
          <span class="tag">QA panel</span>
          {props.version && <span class="version">v{props.version}</span>}
        </div>
        <SessionPicker session={session} sessions={sessions.data} onSwitch={switchSession} />
      </header>
      <main class="layout">
        <section class="card requests-card" aria-labelledby="requests-title">
          <div class="card-head">
            <h2 id="requests-title" tabIndex={-1}>
              Requests
            </h2>
            <span class="badge" aria-label={`${journal.rows.length} shown`}>
              {journal.rows.length}
            </span>
            <StreamBadge
              stream={journal.stream}
              onUnlock={() => void tokens.ask({ message: '', refused: false }).catch(() => {})}
            />
            <div class="toolbar">
              <button type="button" onClick={clearRequests}>
                Clear requests
              </button>
              <button type="button" onClick={downloadHar}>
                Download HAR
              </button>
              <button type="button" class="primary" onClick={downloadBundle}>
                Download bundle
              </button>
            </div>
          </div>
          <Failure message={requestsAction.error} />
          <RequestsTable rows={journal.rows} selected={selected} onSelect={setSelected} />
          <RequestDetails entry={entry} />
        </section>
        <div class="side">
          <FaultRules
            rules={rules.data}
            operations={props.operations}
            error={rulesAction.error ?? rules.error}
            onAdd={addRule}
            onDelete={(id) => void deleteRule(id)}
            onClear={() => void clearRules()}
          />
          <StatePanel
            pets={pets.data}
            error={stateAction.error ?? pets.error}
            onReset={() => void reset()}
            onSeed={seed}
            onUpload={upload}
            onLoadBundle={loadBundle}
          />
          <TimePanel
            clock={clock.data}
            rate={rate.data}
            error={timeAction.error ?? clock.error ?? rate.error}
            onSetClock={setClock}
            onRealTime={() => void realTime()}
            onSetRate={setRate}
            onNoLimit={() => void noLimit()}
          />
          <CoveragePanel
            coverage={coverage.data}
            error={coverageAction.error ?? coverage.error}
            onClear={() => void clearCoverage()}
            onPact={downloadPact}
          />
        </div>
      </main>
      <p class="notice" role="status">
        {notice}
      </p>
      <TokenDialog tokens={tokens} />
    </>
  )
}
