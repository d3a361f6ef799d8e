import { Validator } from '@seriousme/openapi-schema-validator'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'

const text = readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')
const document = parse(text)

describe('openapi.yaml', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    const result = await new Validator().validate(document)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(document.openapi).toBe('3.0.3')
    expect(document.info.version).toBe('1.0.0')
  })

  it('transcribes the interface: servers, security, schemas, deprecation', () => {
    expect(document.servers.map((s: { url: string }) => new URL(s.url).pathname)).toEqual(['/v1', '/v1'])
    expect(document.security).toEqual([{ bearerAuth: [] }])
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(Object.keys(document.components.schemas).sort()).toEqual(['Error', 'NewPet', 'Pet', 'PetStatus', 'Pets'])
    expect(document.components.schemas.Error.required).toEqual(['code', 'message', 'status'])
    const getPet = document.paths['/pets/{petId}'].get
    expect(getPet.deprecated).toBe(true)
    expect(getPet.description).toContain('5 December 2030')
    expect(getPet.description).toContain('`GET /pets` with a `status` filter')
  })
})
