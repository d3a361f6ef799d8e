import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { contractApp } from '../../helpers/contract.js'

const text = readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')
const document = parse(text)

describe('GET /openapi.yaml and /openapi.json', () => {
  it('serve the document without authentication', async () => {
    const { request } = contractApp()
    const yaml = await request('/openapi.yaml')
    expect(yaml.status).toBe(200)
    expect(yaml.headers.get('content-type')).toBe('application/yaml; charset=utf-8')
    expect(await yaml.text()).toBe(text)
    const json = await request('/openapi.json')
    expect(json.status).toBe(200)
    expect(json.headers.get('content-type')).toBe('application/json')
    expect(await json.json()).toEqual(document)
  })
})
