import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// The nearest folder above this module holding package.json: src/, dist/ and
// dist/bundle/ (esbuild) all find the same root.
const findRoot = (): URL => {
  let dir = new URL('.', import.meta.url)
  while (!existsSync(new URL('package.json', dir))) {
    const parent = new URL('..', dir)
    if (parent.href === dir.href) throw new Error('petstore-mock: package.json not found above its code')
    dir = parent
  }
  return dir
}

const root = findRoot()

/** A file shipped with the package (openapi.yaml, fixtures/…), as a path. */
export const packageFile = (relative: string): string => fileURLToPath(new URL(relative, root))
