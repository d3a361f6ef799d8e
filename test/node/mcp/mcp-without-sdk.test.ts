import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../../docs/recipe-files.js'

// Issue 42: @modelcontextprotocol/sdk is an optional peer. The built package, run where it is not
// installed (every other package linked as the repository has it): the mock serves as ever, /__admin/mcp
// answers 503 naming the package, and `petstore-mock mcp` exits 2 saying so.
let dir: string
let child: ChildProcess
let url: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-mock-no-sdk-'))
  cpSync(join(repoRoot, 'dist'), join(dir, 'dist'), { recursive: true, filter: (src) => !src.includes('/dist/bundle') })
  cpSync(join(repoRoot, 'package.json'), join(dir, 'package.json'))
  mkdirSync(join(dir, 'node_modules'))
  for (const name of readdirSync(join(repoRoot, 'node_modules'))) {
    if (name === '@modelcontextprotocol' || name === '.bin') continue
    symlinkSync(join(repoRoot, 'node_modules', name), join(dir, 'node_modules', name))
  }
  child = spawn(
    process.execPath,
    [join(dir, 'dist/bin.js'), '--host', '127.0.0.1', '--port', '0', '--admin-token', 'root'],
    {
      cwd: dir,
      env: { PATH: process.env['PATH'] },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let err = ''
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${err}`)), 30_000)
    child.stderr!.on('data', (chunk) => {
      err += chunk
      const found = /listening on (http:\/\/\S+)/.exec(err)?.[1]
      if (found) {
        clearTimeout(timer)
        resolve(found)
      }
    })
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)))
  })
}, 60_000)

afterAll(() => {
  child?.kill()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('without @modelcontextprotocol/sdk installed', () => {
  it('serves /v1 and the control plane as ever; /__admin/mcp answers 503 naming the package', async () => {
    expect((await fetch(`${url}/v1/pets/1`, { headers: { Authorization: 'Bearer k' } })).status).toBe(200)
    const admin = await fetch(`${url}/__admin/sessions`, { headers: { Authorization: 'Bearer root' } })
    expect(admin.status).toBe(200)
    const mcp = await fetch(`${url}/__admin/mcp`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer root',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(mcp.status).toBe(503)
    const body = await mcp.json()
    expect(body).toMatchObject({ code: 'service_unavailable', status: 503 })
    expect(body.message).toContain('npm install @modelcontextprotocol/sdk')
    // Still behind the guard.
    expect((await fetch(`${url}/__admin/mcp`, { method: 'POST' })).status).toBe(401)
  })

  it('petstore-mock mcp exits 2 saying how to install it', () => {
    const result = spawnSync(process.execPath, [join(dir, 'dist/bin.js'), 'mcp', '--url', url], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 30_000,
      input: '',
    })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('npm install @modelcontextprotocol/sdk')
  })
})
