import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, posix, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { brokenLinks, docPages, pageLinks } from '../helpers/doc-links.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const pages = docPages(root)

describe('the documentation', () => {
  it('has pages in docs/', () => {
    expect(pages).toContain('docs/qa.md')
    expect(pages).toContain('docs/reference/robustness.md')
  })

  it.each(pages)('%s: every relative link and #anchor resolves', (page) => {
    expect(brokenLinks(root, page)).toEqual([])
  })

  it('reaches every page of docs/ from the README, following links', () => {
    const reached = new Set(['README.md'])
    const queue = ['README.md']
    for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
      for (const target of pageLinks(readFileSync(join(root, page), 'utf8')).targets) {
        const path = target.split('#')[0] ?? ''
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || !path.endsWith('.md')) continue
        const linked = relative(root, resolve(root, dirname(page), decodeURI(path)))
          .split('\\')
          .join('/')
        if (reached.has(linked) || !existsSync(join(root, linked))) continue
        reached.add(linked)
        queue.push(linked)
      }
    }
    expect(pages.filter((page) => !reached.has(page))).toEqual([])
  })
})

describe('the link check itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-mock-links-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  write(
    'guide/target.md',
    [
      '# Target',
      '## HAR: `GET /__admin/requests.har`',
      '## Reproduction bundles: `GET`/`PUT /__admin/snapshot`, `--snapshot`',
      '## Sunset and rate limits',
      '## Sunset and rate limits',
      '## In the page: `petstore-mock/msw` <small>(beta)</small>',
      '## Tom & Jerry’s *best* [friends](https://example.com)',
    ].join('\n\n'),
  )
  write('data.yaml', 'a: 1\n')

  it.each([
    ['a heading with a code span', '[x](target.md#har-get-__adminrequestshar)', []],
    ['slashes, commas and dashes', '[x](target.md#reproduction-bundles-getput-__adminsnapshot---snapshot)', []],
    ['the second of two equal headings', '[x](target.md#sunset-and-rate-limits-1)', []],
    ['inline HTML left out', '[x](target.md#in-the-page-petstore-mockmsw-beta)', []],
    ['emphasis, a link and punctuation', '[x](target.md#tom--jerrys-best-friends)', []],
    ['a heading of the same page', '[x](#page)', []],
    [
      'an absent anchor',
      '[x](target.md#sunset-and-rate-limits-2)',
      ['target.md#sunset-and-rate-limits-2: no such heading'],
    ],
    ['an anchor in another case', '[x](target.md#Target)', ['target.md#Target: no such heading']],
    ['an absent file', '[x](missing.md)', ['missing.md: no such file']],
    ['an absent image', '![x](missing.png)', ['missing.png: no such file']],
    ['a file beside the guide', '[x](../data.yaml)', []],
    [
      'an anchor into a file not Markdown',
      '[x](../data.yaml#a)',
      ['../data.yaml#a: an anchor into a file that is not Markdown'],
    ],
    ['a file outside the repository', '[x](../../outside.md)', ['../../outside.md: outside the repository']],
    ['an absolute path', '[x](/etc/hosts)', ['/etc/hosts: outside the repository']],
    ['a link in a table cell', '| a |\n| - |\n| [x](nope.md) |', ['nope.md: no such file']],
    ['a link in a list item', '- one\n- [x](nope.md)', ['nope.md: no such file']],
    ['a link in a code block, not a link', '```md\n[x](nope.md)\n```', []],
    ['absolute URLs, not checked', '[x](https://example.com/nope.md) [y](mailto:a@b.c)', []],
  ])('%s', (_, markdown, broken) => {
    write('guide/page.md', `# Page\n\n${markdown}\n`)
    expect(brokenLinks(dir, 'guide/page.md')).toEqual(broken)
  })
})
