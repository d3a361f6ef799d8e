import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { Lexer, type Tokens } from 'marked'
import { engineMismatches } from '../../scripts/node-runtime.mjs'
import { readPage } from '../helpers/doc-tables.js'

// The commands a newcomer copies from the README and the install page must work as written, in a
// shell outside npm and outside a terminal (a CI script).
const shellLines = (page: string): string[] =>
  new Lexer()
    .lex(readPage(page))
    .filter((token): token is Tokens.Code => token.type === 'code' && ['sh', 'bash'].includes(token.lang ?? ''))
    .flatMap((block) => block.text.split('\n'))
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean)

const pages = ['README.md', 'docs/install.md', 'docs/drift.md']

describe.each(pages)('%s', (page) => {
  it('runs npx on a path or a tarball with --yes (without it, npx outside a terminal cancels)', () => {
    const unattended = shellLines(page).filter((line) => /^npx (?!--yes )\S*(\/|\.tgz)/.test(line))
    expect(unattended).toEqual([])
  })
})

describe.each(['README.md', 'docs/install.md'])('%s', (page) => {
  it('never shows a bare petstore-mock command (on PATH only after a global install)', () => {
    const bare = shellLines(page).filter((line) => /^petstore-mock\b/.test(line))
    expect(bare).toEqual([])
  })
})

describe('README.md', () => {
  const readme = readPage('README.md')
  const heading = (name: string) => readme.indexOf(`\n## ${name}\n`)

  it('starts with the quick start, before the comparison', () => {
    expect(heading('Quick start')).toBeGreaterThan(0)
    expect(heading('Quick start')).toBeLessThan(heading('Why this one'))
    expect(readme.indexOf('\n## ')).toBe(heading('Quick start'))
  })

  it('says what npm test runs and names the suites it leaves out', () => {
    const quickStart = readme.slice(heading('Quick start'), heading('Why this one'))
    expect(quickStart).not.toContain('whole test suite')
    for (const script of ['test:browser', 'test:redis', 'test:container', 'test:testcontainers']) {
      expect(quickStart).toContain(`npm run ${script}`)
    }
  })
})

describe('docs/install.md', () => {
  it("the sample output on Node 20.20 counts the packages the lock file's engines refuse there, as the prepare script does", () => {
    const page = readPage('docs/install.md')
    const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Parameters<
      typeof engineMismatches
    >[0]
    const { satisfies } = createRequire(import.meta.url)('semver') as { satisfies: (...args: unknown[]) => boolean }
    const count = engineMismatches(lock, 'v20.20.2', satisfies).length
    expect(page).toContain(`petstore-mock: ${count} packages ask for a newer Node.js than v20.20.2`)
    expect(page).toContain(`print ${count * 5} more lines first: five lines of \`EBADENGINE\` for`)
    expect(page).toContain(`each of those ${count} packages`)
  })
})
