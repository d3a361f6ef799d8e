// Sums the machine-readable results of every suite (vitest's JSON reports and the script
// suites' summaries) into the closing line; exits 1 when any test or step failed.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const [dir, ...failedSteps] = process.argv.slice(2)
let passed = 0
let failed = 0
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'))
  console.log(`${file.replace(/\.json$/, '')}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`)
  passed += report.numPassedTests
  failed += report.numFailedTests
}
for (const step of failedSteps) console.log(`step failed: ${step}`)
// A step that failed without a failing test (a crash, a type error) still counts as one failure.
if (failedSteps.length > 0 && failed === 0) failed = failedSteps.length
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0)
