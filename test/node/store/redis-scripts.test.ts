import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { redisScriptNames, redisScripts } from '../../../src/generated/redis-scripts.js'
import { batchScript, scriptFiles } from '../../../src/node/store/redis/lua-program.js'

const folder = new URL('../../../src/node/store/redis/scripts/', import.meta.url)
const files = readdirSync(folder).filter((file) => file.endsWith('.lua'))

describe('the Redis store scripts: one Lua file per feature, in one program', () => {
  it('loads every file of scripts/, once, and nothing else', () => {
    expect([...scriptFiles].sort()).toEqual(files.map((file) => file.slice(0, -4)).sort())
    expect(Object.keys(redisScripts).sort()).toEqual([...scriptFiles].sort())
  })

  it('defines each script once, and each local function once', () => {
    expect(new Set(redisScriptNames).size).toBe(redisScriptNames.length)
    const helpers = [...batchScript.matchAll(/^local function (\w+)/gm)].map((m) => m[1])
    expect(helpers.length).toBeGreaterThan(20)
    expect(new Set(helpers).size).toBe(helpers.length)
  })

  it('defines a local function before a later file uses it (the files run in scriptFiles order)', () => {
    const defined = new Map<string, number>()
    scriptFiles.forEach((name, k) => {
      for (const m of redisScripts[name]!.matchAll(/^local function (\w+)/gm)) defined.set(m[1]!, k)
    })
    scriptFiles.forEach((name, k) => {
      for (const [helper, at] of defined) {
        if (new RegExp(`\\b${helper}\\(`).test(redisScripts[name]!))
          expect(at, `${helper} in ${name}.lua`).toBeLessThanOrEqual(k)
      }
    })
  })

  it('makes no global: every top-level statement is a local, a script of S, a comment or an end', () => {
    for (const file of files) {
      const text = readFileSync(new URL(file, folder), 'utf8')
      const loose = text
        .split('\n')
        .filter((line) => /^[A-Za-z_]/.test(line) && !/^(local |S\.\w+ = function|end\b)/.test(line))
      expect(loose, file).toEqual([])
    }
  })
})
