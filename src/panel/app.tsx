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
import { TimelinesPanel } from './views/timelines-panel.js'
import type { FaultRule, FaultRuleInput, JournalEntry, SeedRequest } from './types.js'
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
  const sessions = useResource(() => client.call((mock) => mock.sessions.list()), tokens)
  const rules = useResource(() => client.call((mock) => mock.faults.list()), client)
  const pets = useResource(() => client.call((mock) => mock.state.get()), client)
  const coverage = useResource(() => client.call((mock) => mock.coverage()), client)
  const reloadCoverage = useThrottled(() => void coverage.reload(), 1000)
  const clock = useResource(() => client.call((mock) => mock.clock.get()), client)
  const rate = useResource(() => client.call((mock) => mock.rateLimit.get()), client)
  const timelines = useResource(() => client.call((mock) => mock.timelines.list()), client)
  const reloadRules = useThrottled(() => void rules.reload(), 300)
  const reloadPets = useThrottled(() => void pets.reload(), 1000)
  const reloadSessions = useThrottled(() => void sessions.reload(), 1000)
  // The keys a rate limit counts, and a limit or clock set by another client, change with requests.
  const reloadTime = useThrottled(() => {
    void clock.reload()
    void rate.reload()
    void timelines.reload()
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
    void timelines.reload()
  }, [sessions.reload, rules.reload, pets.reload, coverage.reload, clock.reload, rate.reload])

  // A session the panel opened (made, when new) is listed at once, not at the next poll.
  useEffect(() => {
    void client.open().then(reloadSessions, () => {})
  }, [client, reloadSessions])

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
      const rule =
        typeof body === 'string'
          ? ((await (
              await client.request({ method: 'POST', path: '/faults', text: { contentType: 'application/json', body } })
            ).json()) as FaultRule)
          : await client.call((mock) => mock.faults.add(body as FaultRuleInput))
      await rules.reload()
      reloadSessions()
      notify(`Rule ${rule.id} added${label ? `: ${label}` : ''}.`)
    })
  const deleteRule = (id: number) =>
    rulesAction.run(async () => {
      await client.call((mock) => mock.faults.remove(id))
      await rules.reload()
      notify(`Rule ${id} deleted.`)
    })
  const clearRules = () =>
    rulesAction.run(async () => {
      await client.call((mock) => mock.faults.clear())
      await rules.reload()
      notify('Every rule of this session removed.')
    })

  const clearRequests = () =>
    requestsAction.run(async () => {
      await client.call((mock) => mock.requests.clear())
      journal.clear()
      setSelected(undefined)
      notify('Requests cleared.')
    })
  const downloadHar = () =>
    requestsAction.run(async () => {
      const res = await client.request({ method: 'GET', path: '/requests.har' })
      const name = dispositionFilename(res.headers.get('Content-Disposition'))
      saveFile(await res.blob(), name ?? downloadName(session, fileStamp(new Date()), '.har'))
      notify('HAR downloaded.')
    })
  const downloadBundle = () =>
    requestsAction.run(async () => {
      const stamp = fileStamp(new Date())
      const [snapshot, har] = await Promise.all([
        client.call((mock) => mock.snapshot.yaml()),
        client.request({ method: 'GET', path: '/requests.har' }),
      ])
      const harBlob = await har.blob()
      saveFile(new Blob([snapshot], { type: 'application/yaml' }), downloadName(session, stamp, '.snapshot.yaml'))
      saveFile(harBlob, downloadName(session, stamp, '.har'))
      notify('Bundle downloaded: the snapshot and the HAR.')
    })

  const reset = () =>
    stateAction.run(async () => {
      await client.call((mock) => mock.reset())
      journal.clear()
      setSelected(undefined)
      reloadAll()
      notify(`Session ${session} reset.`)
    })
  const seed = (body: Record<string, unknown>) =>
    stateAction.run(async () => {
      // The form sends what was typed, checked by the server (a 400 naming the field).
      await client.call((mock) => mock.seed(body as SeedRequest))
      await pets.reload()
      reloadSessions()
      notify(
        `Pets replaced by ${String(body['count'])} generated ones${body['data'] === 'edge' ? ' (edge cases)' : ''}.`,
      )
    })
  const upload = (file: File) =>
    stateAction.run(async () => {
      const text = { contentType: fileContentType(file.name), body: await file.text() }
      await client.request({ method: 'PUT', path: '/state', text })
      await pets.reload()
      reloadSessions()
      notify(`Pets replaced from ${file.name}.`)
    })

  const clearCoverage = () =>
    coverageAction.run(async () => {
      await client.call((mock) => mock.clearCoverage())
      await coverage.reload()
      notify('Coverage counts cleared.')
    })
  const downloadPact = (consumer: string) =>
    coverageAction.run(async () => {
      const pact = await client.call((mock) => mock.pact({ consumer }))
      const blob = new Blob([`${JSON.stringify(pact, null, 2)}\n`], { type: 'application/json' })
      saveFile(blob, `${pact.consumer.name}-${pact.provider.name}.json`)
      notify('Pact file downloaded.')
    })

  const loadBundle = (file: File) =>
    stateAction.run(async () => {
      const text = { contentType: fileContentType(file.name), body: await file.text() }
      await client.request({ method: 'PUT', path: '/snapshot', text })
      reloadAll()
      notify(`Bundle loaded from ${file.name}: pets, rules, latency, seed, clock and rate limit replaced.`)
    })

  const setClock = (body: { now?: string; frozen: boolean }) =>
    timeAction.run(async () => {
      await client.call((mock) => mock.clock.set(body))
      await clock.reload()
      await timelines.reload()
      notify('Clock set.')
    })
  const realTime = () =>
    timeAction.run(async () => {
      await client.call((mock) => mock.clock.reset())
      await clock.reload()
      notify('Clock back to real time.')
    })
  const setRate = (text: string) =>
    timeAction.run(async () => {
      await client.call((mock) => mock.rateLimit.set(text))
      await rate.reload()
      notify(`Rate limit set to ${text}.`)
    })
  const noLimit = () =>
    timeAction.run(async () => {
      await client.call((mock) => mock.rateLimit.clear())
      await rate.reload()
      notify('Rate limit off.')
    })

  const startTimeline = (name: string, preset: string) =>
    timeAction.run(async () => {
      await client.call((mock) => mock.timelines.put(name, { preset: preset as 'outage' }))
      await timelines.reload()
      notify(`Timeline ${name} started (${preset}).`)
    })
  const stopTimeline = (name: string) =>
    timeAction.run(async () => {
      await client.call((mock) => mock.timelines.remove(name))
      await timelines.reload()
      notify(`Timeline ${name} stopped.`)
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
          <TimelinesPanel
            list={timelines.data}
            error={timelines.error}
            onStart={startTimeline}
            onStop={(name) => void stopTimeline(name)}
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
