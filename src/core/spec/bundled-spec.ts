import type { ValidateFunction } from 'ajv'
import { specDocument } from '../../generated/contract.js'
import { byPointer } from '../../generated/validators.js'
import { type Spec, specFromDocument } from './spec.js'

const validators = byPointer as unknown as Record<string, ValidateFunction>

let bundled: Spec | undefined
let text: string | undefined

/**
 * openapi.yaml's text, loaded on first use (/openapi.yaml): a module of its own, a chunk of its own
 * in a browser bundle (msw's budget), beside the parsed document the mock runs on.
 */
const loadText = async (): Promise<string> => (text ??= (await import('../../generated/contract-text.js')).specText)

/**
 * Hands the bundled contract its text now (the Node entries, src/index.ts: `bundledSpec().text` is
 * then the text from the start, as for a contract read from a file).
 */
export const holdBundledText = (specText: string): void => {
  text = specText
}

/**
 * The bundled contract (openapi.yaml), embedded at build time with its
 * validators generated ahead of time: nothing to read, parse or compile. Its
 * `text` is empty until `loadText()` has loaded it (or {@link holdBundledText} given it).
 */
export const bundledSpec = (): Spec =>
  (bundled ??= Object.defineProperty(
    {
      ...specFromDocument(specDocument, '', (pointer) => {
        const validate = validators[pointer]
        if (!validate) throw new Error(`no generated validator for ${pointer}: run npm run generate`)
        return validate
      }),
      loadText,
    },
    'text',
    { get: () => text ?? '', enumerable: true },
  ))
