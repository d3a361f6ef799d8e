import { type CoverageReport, type ResponseCoverage, uncovered } from './coverage-report.js'

/**
 * The coverage report for people and CI tools: a terminal table, Markdown
 * for a GitHub Actions job summary, JUnit XML (one test case per documented
 * response, failing when no request got it).
 */

const pad = (cells: string[][], right: ReadonlySet<number>): string[] => {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)))
  return cells.map((row) =>
    row
      .map((cell, i) => (right.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  )
}

const headline = (report: CoverageReport): string =>
  `${report.covered} of ${report.total} documented responses covered (${report.percent} %)`

/** How a row beyond the contract is labelled: a breaksContract rule's answers say so. */
const beyondLabel = (r: ResponseCoverage): string =>
  r.breaksContract ? 'beyond the contract (breaksContract rule)' : 'beyond the contract'

/** A terminal table: each documented response, the statuses beyond the contract, then the input classes. */
export const coverageText = (report: CoverageReport, where: string): string => {
  const responses = [
    ['operation', 'status', 'requests', 'injected', ''],
    ...report.responses.map((r) => [
      r.operation,
      String(r.status),
      String(r.requests),
      String(r.injected),
      r.documented ? (r.covered ? 'covered' : 'NOT COVERED') : beyondLabel(r),
    ]),
  ]
  const inputs = [
    ['operation', 'input', 'class', 'requests', ''],
    ...report.inputs.map((i) => [
      i.operation,
      `${i.in} ${i.name}`,
      i.class,
      String(i.requests),
      i.covered ? '' : 'not sent',
    ]),
  ]
  return [
    `Contract coverage of session ${report.session} at ${where}: ${headline(report)}, ${report.requests} requests`,
    '',
    ...pad(responses, new Set([1, 2, 3])).map((line) => `  ${line}`),
    '',
    'Inputs:',
    ...pad(inputs, new Set([3])).map((line) => `  ${line}`),
    '',
  ].join('\n')
}

const cell = (text: string): string => text.replace(/\|/g, '\\|')

/** Markdown for `$GITHUB_STEP_SUMMARY`: the responses as a table, the inputs folded. */
export const coverageMarkdown = (report: CoverageReport): string => {
  const missing = uncovered(report)
  const sent = report.inputs.filter((i) => i.covered).length
  return [
    `### Contract coverage: ${headline(report)}`,
    '',
    `Session \`${report.session}\`, ${report.requests} requests.${missing.length > 0 ? ` Not covered: ${missing.map((m) => `\`${m}\``).join(', ')}.` : ''}`,
    '',
    '| Operation | Status | Requests | Injected | |',
    '| --- | ---: | ---: | ---: | --- |',
    ...report.responses.map(
      (r) =>
        `| ${cell(r.operation)} | ${r.status} | ${r.requests} | ${r.injected} | ${
          r.documented ? (r.covered ? '✅ covered' : '❌ not covered') : beyondLabel(r)
        } |`,
    ),
    '',
    '<details>',
    `<summary>Inputs: ${sent} of ${report.inputs.length} classes sent</summary>`,
    '',
    '| Operation | Input | Class | Requests |',
    '| --- | --- | --- | ---: |',
    ...report.inputs.map(
      (i) =>
        `| ${cell(i.operation)} | ${i.in} \`${cell(i.name)}\` | ${cell(i.description)} | ${i.requests}${i.covered ? '' : ' ❌'} |`,
    ),
    '',
    '</details>',
    '',
  ].join('\n')
}

const xml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** JUnit XML: one test case per documented response, failing when not covered. */
export const coverageJunit = (report: CoverageReport): string => {
  const documented = report.responses.filter((r) => r.documented)
  const failures = documented.filter((r) => !r.covered).length
  const suite = `contract coverage (session ${report.session})`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-mock contract coverage" tests="${documented.length}" failures="${failures}">`,
    `  <testsuite name="${xml(suite)}" tests="${documented.length}" failures="${failures}">`,
    ...documented.map((r) => {
      const open = `    <testcase classname="${xml(r.operation)}" name="${xml(`${r.operation} ${r.status}`)}"`
      if (r.covered) return `${open}/>`
      const message = `no request of session ${report.session} got ${r.operation} ${r.status}`
      return `${open}>\n      <failure message="${xml(message)}" type="not covered"/>\n    </testcase>`
    }),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
