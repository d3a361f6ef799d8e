import { objectFields, requestBodySchema } from '../spec/body-fields.js'
import type { Spec, SpecOperation, SpecParameter } from '../spec/spec.js'

/**
 * What contract coverage counts, derived from the contract: each operation's
 * documented responses, and the classes of input worth sending (each enum
 * value of a query parameter, a bounded integer at its default, bounds and
 * beyond, an optional body field with and without, a path id that exists
 * and one that does not). Built once per app; the hot path only looks up
 * precomputed counter names here.
 */

/** One documented response (operation and status): a counter of the report's total. */
export interface DocumentedResponse {
  operation: string
  status: number
}

/** Where an input class is read from. */
export type InputPlace = 'query' | 'path' | 'body'

/** One class of input of an operation. */
export interface InputClass {
  operation: string
  in: InputPlace
  /** The parameter or body field. */
  name: string
  /** The class: `absent`, an enum value, `default`, `minimum`, `maximum`, `within`, `beyond`, `invalid`, `with`, `without`, `existing`, `missing`. */
  class: string
  /** The class in words, e.g. `limit=100, its maximum`. */
  description: string
  /** The counter's name. */
  counter: string
}

/**
 * One input of an operation: its classes' counters, and which class a
 * request is in (an index into `counters`, -1 for none): numbers, so that a
 * request's combination of classes is one number (see {@link Combination}).
 */
export interface Dimension<T> {
  name: string
  counters: readonly string[]
  classify: (value: T) => number
}

/**
 * A combination a request falls in (status, injected or not, a class of
 * each input, an empty list or not), made once and then found by its
 * number: what the hot path hands the store is the same frozen array each
 * time, and the start of the interaction's key is already built.
 */
export interface Combination {
  /** The counters to add one to (frozen). */
  counters: readonly string[]
  /** The interaction's key without what varies per request (the id read, a refused body's shape). */
  key: string
}

/** An operation's part of the model. */
export interface OperationCoverage {
  operation: SpecOperation
  /** Query parameters: the first value sent, undefined when absent. */
  query: Dimension<string | undefined>[]
  /** Optional body fields: whether the JSON object body has the field. */
  body: Dimension<boolean>[]
  /** Path ids: the answer's status (2xx: existing, 404: missing), for answers nothing injected. */
  path: Dimension<number>[]
  /** The combination of a number (see coverage-listener.ts), made by `make` the first time. */
  combination(code: number, make: () => Combination): Combination
  /** `<operation> <status>`, and with ` injected`. */
  responseCounter(status: number): string
  injectedCounter(status: number): string
  /** `<operation> <status> beyond`: a rule's own answer marked `breaksContract`, counted apart from the documented response. */
  beyondCounter(status: number): string
}

/** The whole model: the report's rows, and each operation's classifiers. */
export interface CoverageModel {
  documented: DocumentedResponse[]
  inputs: InputClass[]
  byOperation: ReadonlyMap<string, OperationCoverage>
}

const INTEGER = /^-?[0-9]+$/

const queryClasses = (
  parameter: SpecParameter,
  addCounter: (name: string, cls: string, description: string) => string,
): Dimension<string | undefined> => {
  const { name, schema } = parameter
  const counters: string[] = []
  // Each class's index in `counters`.
  const add = (param: string, cls: string, description: string): number =>
    counters.push(addCounter(param, cls, description)) - 1
  const dimension = (classify: (value: string | undefined) => number): Dimension<string | undefined> => ({
    name,
    counters,
    classify,
  })
  if (Array.isArray(schema.enum)) {
    const absent = add(name, 'absent', `without ${name}`)
    const values = new Map(schema.enum.map((value) => [String(value), add(name, String(value), `${name}=${value}`)]))
    const other = add(name, 'invalid', `${name} not one of ${schema.enum.join(', ')}`)
    return dimension((value) => (value === undefined ? absent : (values.get(value) ?? other)))
  }
  if (schema.type === 'integer') {
    const { minimum, maximum } = schema
    const fallback = typeof schema.default === 'number' ? schema.default : undefined
    const atDefault =
      fallback === undefined
        ? add(name, 'absent', `without ${name}`)
        : add(name, 'default', `${name} at its default (${fallback}), sent or not`)
    const atMinimum = minimum === undefined ? -1 : add(name, 'minimum', `${name}=${minimum}, its minimum`)
    const atMaximum = maximum === undefined ? -1 : add(name, 'maximum', `${name}=${maximum}, its maximum`)
    const bounded = minimum !== undefined || maximum !== undefined
    const within = bounded ? add(name, 'within', `${name} between its bounds, none of the above`) : -1
    const beyond = bounded
      ? add(name, 'beyond', `${name} beyond its bounds (${[minimum ?? '…', maximum ?? '…'].join(' to ')})`)
      : -1
    const invalid = add(name, 'invalid', `${name} not an integer`)
    return dimension((value) => {
      if (value === undefined) return atDefault
      if (!INTEGER.test(value)) return invalid
      const n = Number(value)
      if (n === fallback) return atDefault
      if (n === minimum) return atMinimum
      if (n === maximum) return atMaximum
      if ((minimum !== undefined && n < minimum) || (maximum !== undefined && n > maximum)) return beyond
      return within
    })
  }
  const absent = add(name, 'absent', `without ${name}`)
  const present = add(name, 'present', `with ${name}`)
  return dimension((value) => (value === undefined ? absent : present))
}

/** Derives the model from the contract. */
export const coverageModel = (spec: Spec): CoverageModel => {
  const documented: DocumentedResponse[] = []
  const inputs: InputClass[] = []
  const byOperation = new Map<string, OperationCoverage>()
  for (const operation of spec.operations) {
    const op = operation.id
    for (const status of operation.statuses) documented.push({ operation: op, status })
    const responses = new Map<number, string>()
    const injected = new Map<number, string>()
    const beyond = new Map<number, string>()
    const counterOf = (cache: Map<number, string>, status: number, suffix: string): string => {
      let name = cache.get(status)
      if (name === undefined) cache.set(status, (name = `${op} ${status}${suffix}`))
      return name
    }
    const adder =
      (place: InputPlace) =>
      (name: string, cls: string, description: string): string => {
        const counter = `${op} ${place}:${name}=${cls}`
        inputs.push({ operation: op, in: place, name, class: cls, description, counter })
        return counter
      }
    // Bounded: a combination is a status (of the few an operation answers) and a class of each input.
    const combinations = new Map<number, Combination>()
    const coverage: OperationCoverage = {
      operation,
      responseCounter: (status) => counterOf(responses, status, ''),
      injectedCounter: (status) => counterOf(injected, status, ' injected'),
      beyondCounter: (status) => counterOf(beyond, status, ' beyond'),
      combination: (code, make) => {
        let found = combinations.get(code)
        if (found === undefined) combinations.set(code, (found = make()))
        return found
      },
      query: [],
      body: [],
      path: [],
    }
    for (const parameter of operation.parameters) {
      if (parameter.in === 'query') {
        coverage.query.push(queryClasses(parameter, adder('query')))
      } else if (parameter.in === 'path' && operation.statuses.includes(404)) {
        const add = adder('path')
        const counters = [
          add(parameter.name, 'existing', `${parameter.name} of an existing resource`),
          add(parameter.name, 'missing', `${parameter.name} of a missing resource (404)`),
        ]
        coverage.path.push({
          name: parameter.name,
          counters,
          classify: (status) => (status >= 200 && status < 300 ? 0 : status === 404 ? 1 : -1),
        })
      }
    }
    const { properties, required } = objectFields(spec.document, requestBodySchema(spec, operation))
    for (const name of properties.keys()) {
      if (required.has(name)) continue
      const add = adder('body')
      const counters = [
        add(name, 'with', `with the optional ${name}`),
        add(name, 'without', `without the optional ${name}`),
      ]
      coverage.body.push({ name, counters, classify: (has) => (has ? 0 : 1) })
    }
    byOperation.set(op, coverage)
  }
  return { documented, inputs, byOperation }
}
