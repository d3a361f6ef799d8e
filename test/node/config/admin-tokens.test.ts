import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OptionConflict } from '../../../src/node/config/usage-errors.js'
import { adminTokensBanner, adminTokensOf, openAdminOf } from '../../../src/node/config/admin-tokens.js'
import { configDefaults, type Config } from '../../../src/node/config/config.js'
import { keyFingerprint } from '../../../src/core/http/request/key-fingerprint.js'

const config = (over: Partial<Config>): Config => ({ ...configDefaults, log: 'silent', ...over })

describe('admin tokens of a start (issue 28)', () => {
  it('adds the lines of --admin-tokens-file to --admin-token, skipping blanks and comments', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tokens-')), 'tokens')
    writeFileSync(file, '# team tokens\nta=team-a-*\n\n  qa=*:read  \n')
    expect(adminTokensOf(config({ adminTokens: ['root'], adminTokensFile: file }))).toEqual([
      'root',
      'ta=team-a-*',
      'qa=*:read',
    ])
  })

  it('names the file and line of a bad token, never its value', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tokens-')), 'tokens')
    writeFileSync(file, 'ok-token\nbad token here\n')
    const error = (() => {
      try {
        adminTokensOf(config({ adminTokensFile: file }))
      } catch (e) {
        return e as Error
      }
    })()
    expect(error?.message).toContain(`--admin-tokens-file ${file} line 2`)
    expect(error?.message).not.toContain('bad token here')
  })

  it('off loopback with no token, the control plane is open only with --open-admin', () => {
    expect(openAdminOf(config({ host: '127.0.0.1' }), [])).toBe(false)
    expect(() => openAdminOf(config({ host: '0.0.0.0' }), [])).toThrow(
      /say --open-admin \(PETSTORE_MOCK_OPEN_ADMIN=true\)/,
    )
    // One line on stderr, exit 2, as contradicting options are (exit-codes.ts).
    expect(() => openAdminOf(config({ host: '0.0.0.0' }), [])).toThrow(OptionConflict)
    expect(openAdminOf(config({ host: '0.0.0.0', openAdmin: true }), [])).toBe(true)
    expect(openAdminOf(config({ host: '0.0.0.0' }), ['root'])).toBe(false)
  })

  it('the banner names tokens by fingerprint and scope, never the secret; an open plane says OPEN', () => {
    const line = adminTokensBanner(config({}), ['root', 'ta=team-a-*:read'], false)
    expect(line).toBe(
      `admin token required: ${keyFingerprint('root')} (all), ${keyFingerprint('ta')} (sessions team-a-*, read-only)`,
    )
    expect(adminTokensBanner(config({ host: '0.0.0.0' }), [], true)).toMatch(/^OPEN to every host/)
  })
})
