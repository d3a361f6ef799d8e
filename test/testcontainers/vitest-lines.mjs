// Turns a vitest JSON report into one line per test, "ok   NAME" or "FAIL NAME" (what .ci/run's
// script_suite counts). Usage: node vitest-lines.mjs REPORT.json [PREFIX]. A missing report, or a
// file that failed before running its tests, is a FAIL line too.
import { existsSync, readFileSync } from 'node:fs'
import { basename } from 'node:path'

const [file, prefix = ''] = process.argv.slice(2)
if (!existsSync(file)) {
  console.log(`FAIL ${prefix}no vitest report (${basename(file)})`)
  process.exit(0)
}
const report = JSON.parse(readFileSync(file, 'utf8'))
for (const suite of report.testResults) {
  if (suite.status === 'failed' && suite.assertionResults.length === 0) {
    console.log(`FAIL ${prefix}${basename(suite.name)}: ${suite.message.split('\n')[0]}`)
  }
  for (const test of suite.assertionResults) {
    if (test.status === 'passed') console.log(`ok   ${prefix}${test.fullName}`)
    else if (test.status === 'failed') console.log(`FAIL ${prefix}${test.fullName}`)
  }
}
