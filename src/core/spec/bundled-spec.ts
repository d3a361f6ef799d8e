import type { ValidateFunction } from 'ajv'
import { specDocument, specText } from '../../generated/contract.js'
import { byPointer } from '../../generated/validators.js'
import { type Spec, specFromDocument } from './spec.js'

const validators = byPointer as unknown as Record<string, ValidateFunction>

let bundled: Spec | undefined

/**
 * The bundled contract (openapi.yaml), embedded at build time with its
 * validators generated ahead of time: nothing to read, parse or compile.
 */
export const bundledSpec = (): Spec =>
  (bundled ??= specFromDocument(specDocument, specText, (pointer) => {
    const validate = validators[pointer]
    if (!validate) throw new Error(`no generated validator for ${pointer}: run npm run generate`)
    return validate
  }))
