import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** vitest global setup: the tests that spawn the CLI run the freshly built dist/. */
export default function build(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  })
}
