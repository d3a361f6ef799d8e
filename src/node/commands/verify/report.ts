import type { CheckResult } from './run-context.js'
import type { SilenceObservation } from './silence-probes.js'

/** What a verify run found, as `--json` prints it. */
export interface VerifyReport {
  url: string
  /** Where the contract came from (a --spec path, or the bundled one) and its version. */
  contract: string
  conforms: boolean
  requests: number
  checks: CheckResult[]
  drifts: number
  skipped: number
  silences: SilenceObservation[]
  /** The mock's command line that reads the silences as the deployment does (the settings observed). */
  mockCommand: string
}

/** The report's parts counted and the mock's command line put together. */
export const buildReport = (
  parts: Pick<VerifyReport, 'url' | 'contract' | 'requests' | 'checks' | 'silences'>,
): VerifyReport => {
  const drifts = parts.checks.reduce((n, c) => n + c.drifts.length, 0)
  const settings = parts.silences.flatMap((s) => (s.setting ? [s.setting] : []))
  return {
    ...parts,
    conforms: drifts === 0,
    drifts,
    skipped: parts.checks.filter((c) => c.outcome === 'skipped').length,
    mockCommand: ['petstore-mock', ...settings].join(' '),
  }
}

const silenceLabels: Record<SilenceObservation['key'], string> = {
  limitRange: 'limit outside its range',
  defaultStatus: 'status of a new pet sent without one',
  unknownFields: 'unknown fields in a new pet',
  categories: 'unknown categoryId',
  errorCodes: 'Error code values',
}

/** The plain report: one line per check (one per drift), the silences, the mock's command line, the verdict. */
export const formatReport = (report: VerifyReport): string => {
  const lines = [`petstore-mock verify ${report.url} (contract: ${report.contract})`, '']
  for (const check of report.checks) {
    if (check.outcome === 'ok') lines.push(`ok     ${check.title}`)
    else if (check.outcome === 'skipped') lines.push(`skip   ${check.title} (${check.note})`)
    else for (const drift of check.drifts) lines.push(`DRIFT  ${check.title}: ${drift}`)
  }
  lines.push('', 'Where the spec is silent:')
  for (const s of report.silences) {
    const how = s.setting ?? '(no setting)'
    lines.push(`  ${silenceLabels[s.key]}: ${s.observed}  →  ${how}${s.note ? `  (${s.note})` : ''}`)
  }
  lines.push('', `The mock like this deployment: ${report.mockCommand}`, '')
  const checks = report.checks.length - report.skipped
  lines.push(
    report.conforms
      ? `Conforms: ${checks} checks, no drift (${report.skipped} skipped, ${report.requests} requests).`
      : `Drifts: ${report.drifts} in ${checks} checks (${report.skipped} skipped, ${report.requests} requests).`,
    '',
  )
  return lines.join('\n')
}
