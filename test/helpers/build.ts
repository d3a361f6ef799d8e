import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { writeStamp } from '../../scripts/build-stamp.mjs'

/** vitest global setup: the tests that spawn the CLI run the freshly built dist/ (npm run build). */
export default function build(): void {
  // Once per run, though each project (memory, redis: vitest.config.ts) runs its global setup.
  if (process.env['PETSTORE_MOCK_BUILT'] === String(process.pid)) return
  process.env['PETSTORE_MOCK_BUILT'] = String(process.pid)
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const node = (...args: string[]) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' })
  node('node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json')
  node('scripts/bundle.mjs', 'dist')
  // As `npm run build` ends: `npm start` then knows dist/ is these sources' (scripts/build-stamp.mjs).
  writeStamp(root)
}
