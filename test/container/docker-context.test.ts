import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')

/** The build-context paths the Dockerfile copies (COPY without --from), as written. */
const copiedSources = (dockerfile: string): string[] =>
  dockerfile
    .split('\n')
    .filter((line) => /^COPY\s/.test(line) && !/--from=/.test(line))
    .flatMap((line) => line.trim().split(/\s+/).slice(1, -1))

/** .dockerignore here is `*` then `!path` entries: a path is sent when it is one of them or inside one. */
const admitted = (ignore: string): string[] =>
  ignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('!'))
    .map((line) => line.slice(1).replace(/\/$/, ''))

describe('the image build context', () => {
  it('.dockerignore admits every file the Dockerfile copies (else the build fails with "no items matching")', () => {
    const allowed = admitted(read('.dockerignore'))
    const sources = copiedSources(read('Dockerfile'))
    expect(sources.length).toBeGreaterThan(5)
    const refused = sources.filter(
      (source) => !allowed.some((path) => source.replace(/\/$/, '') === path || source.startsWith(`${path}/`)),
    )
    expect(refused).toEqual([])
  })

  it('every script scripts/bundle.mjs imports is copied into the build stage', () => {
    const imported = [...read('scripts/bundle.mjs').matchAll(/from '\.\/([\w-]+\.mjs)'/g)].map((m) => `scripts/${m[1]}`)
    const sources = copiedSources(read('Dockerfile'))
    for (const script of imported) expect(sources).toContain(script)
  })
})
