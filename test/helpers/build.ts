import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** vitest global setup: the tests that spawn the CLI run the freshly built dist/ (npm run build). */
export default function build(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const node = (...args: string[]) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' })
  node('node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json')
  node('scripts/bundle.mjs', 'dist')
}
