import { stripTypeScriptTypes } from 'node:module'
import { parse } from 'acorn'

/**
 * Finds the assertions of a test file that hold a stopwatch to the machine: the ones a busy machine can
 * fail although the code behaves (issue 27 §3). A heuristic, on the file's syntax alone:
 *
 * - A **clock reading** is a call of `performance.now()`, `Date.now()`, `process.hrtime()` (`.bigint()`)
 *   or `process.uptime()`, or a name bound to one. Two readings subtracted make a **measured duration**,
 *   and so does every value computed from one: a name assigned from it (in the whole file, scopes
 *   ignored), an object property written from it (`{ time: performance.now() - start }` makes every
 *   `.time` of the file one), a function that returns one, an array a duration is pushed to, a call
 *   given one (`Math.min`, `median`), and a name or property called like one (`elapsed…`, `…duration…`,
 *   `…latency…`, `took…`, or a `…Ms`/`…Seconds` that is not a configured amount such as `delayMs`,
 *   `timeoutMs`, `windowSeconds`). A date read from an answer (`Date.parse`) and timestamps compared
 *   with each other (the order of two events) are not measurements.
 * - An **assertion** compares two values: `expect(a).toBeLessThan(b)` and its kin (`.not.` turns it
 *   round), `toBeCloseTo`, and a comparison (`<`, `<=`, `>`, `>=`) given to `expect(…).toBe(true)`,
 *   `assert(…)`, `assert.ok(…)` or a script suite's `check(label, …)`.
 *
 * Flagged: an assertion that **compares one measured duration with another** (`expect(yaml).toBeLessThan(6 *
 * json)`, a ratio `expect(large / small).toBeLessThan(9)`, `expect(worst).toBeLessThan(duration / 4)`),
 * and one that **bounds a measured duration from above** ("under N ms": `expect(elapsed).toBeLessThan(2000)`),
 * which load alone can break. Allowed: a measured duration bounded from below by a constant (a delay the
 * test asked for: `expect(elapsed).toBeGreaterThanOrEqual(295)`; load only makes it longer), counts,
 * bytes, the order of events, and bounded waits (`AbortSignal.timeout`, a test's timeout), which are no
 * assertions. Timing belongs in `npm run bench` (tools/bench), which reports and never fails.
 */
export interface StopwatchAssertion {
  line: number
  /** The assertion's source text, on one line. */
  text: string
  reason: string
}

type Node = { type: string; start: number; end: number; loc?: { start: { line: number } }; [key: string]: any }

const clockCall = (node: Node): boolean => {
  if (node.type !== 'CallExpression') return false
  const callee = node['callee'] as Node
  const name = memberPath(callee)
  return (
    name === 'performance.now' ||
    name === 'Date.now' ||
    name === 'process.hrtime' ||
    name === 'process.hrtime.bigint' ||
    name === 'process.uptime'
  )
}

/** `a.b.c` of a member chain of plain names, else undefined. */
const memberPath = (node: Node): string | undefined => {
  if (node.type === 'Identifier') return node['name'] as string
  if (node.type === 'MemberExpression' && !node['computed']) {
    const object = memberPath(node['object'] as Node)
    return object === undefined ? undefined : `${object}.${(node['property'] as Node)['name']}`
  }
  return undefined
}

const configured = /delay|timeout|interval|grace|window|budget|limit|max|min|retry|ttl|period|sleep|settle|poll/i
/** A name that says it holds a measured duration (see the heuristic above). */
const namedDuration = (name: string): boolean =>
  /elapsed|duration|latency|^took/i.test(name) || (/.(Ms|Seconds)$/.test(name) && !configured.test(name))

/** What a value is, as far as time goes. `ratio`: a duration divided by another (two measurements). */
type Kind = 'timestamp' | 'duration' | 'ratio' | undefined

interface Facts {
  timestamps: Set<string>
  durations: Map<string, 'duration' | 'ratio'>
  properties: Map<string, 'duration' | 'ratio'>
  functions: Map<string, 'duration' | 'ratio'>
}

const children = (node: Node): Node[] => {
  const out: Node[] = []
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'start' || key === 'end') continue
    if (Array.isArray(value)) for (const item of value) isNode(item) && out.push(item)
    else if (isNode(value)) out.push(value)
  }
  return out
}
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string'

const walk = (node: Node, visit: (node: Node) => void): void => {
  visit(node)
  for (const child of children(node)) walk(child, visit)
}

const stronger = (a: Kind, b: Kind): Kind => {
  if (a === 'ratio' || b === 'ratio') return 'ratio'
  if (a === 'duration' || b === 'duration') return 'duration'
  if (a === 'timestamp' || b === 'timestamp') return 'timestamp'
  return undefined
}

const propertyName = (node: Node): string | undefined => {
  if (node.type !== 'MemberExpression') return undefined
  const property = node['property'] as Node
  if (!node['computed'] && property.type === 'Identifier') return property['name'] as string
  if (property.type === 'Literal' && typeof property['value'] === 'string') return property['value'] as string
  return undefined
}

/** The returned expressions of a function (an arrow's expression body included), nested functions apart. */
const returned = (fn: Node): Node[] => {
  const body = fn['body'] as Node
  if (body.type !== 'BlockStatement') return [body]
  const out: Node[] = []
  const visit = (node: Node) => {
    if (node.type === 'ReturnStatement' && node['argument']) out.push(node['argument'] as Node)
    if (/Function/.test(node.type)) return
    for (const child of children(node)) visit(child)
  }
  for (const child of children(body)) visit(child)
  return out
}

const isFunction = (node: Node | undefined): node is Node =>
  node !== undefined && /^(ArrowFunctionExpression|FunctionExpression|FunctionDeclaration)$/.test(node.type)

const kindOf = (node: Node | undefined, facts: Facts): Kind => {
  if (!node) return undefined
  switch (node.type) {
    case 'CallExpression': {
      if (clockCall(node)) {
        const name = memberPath(node['callee'] as Node)
        // process.hrtime(start): the time since `start`.
        return name === 'process.hrtime' && (node['arguments'] as Node[]).length > 0 ? 'duration' : 'timestamp'
      }
      const callee = node['callee'] as Node
      const name = callee.type === 'Identifier' ? (callee['name'] as string) : propertyName(callee)
      if (name === 'parse' && memberPath(callee) === 'Date.parse') return undefined
      let kind: Kind = name !== undefined ? facts.functions.get(name) : undefined
      // A call given a duration (Math.min, median, Number, a map to durations): a duration.
      for (const arg of node['arguments'] as Node[]) {
        const argKind = isFunction(arg)
          ? returned(arg).reduce<Kind>((k, r) => stronger(k, kindOf(r, facts)), undefined)
          : kindOf(arg, facts)
        if (argKind === 'duration' || argKind === 'ratio') kind = stronger(kind, argKind)
      }
      // `.map(…)`, `.at(-1)` of an array of durations.
      if (callee.type === 'MemberExpression') {
        const objectKind = kindOf(callee['object'] as Node, facts)
        if (objectKind === 'duration' || objectKind === 'ratio') kind = stronger(kind, objectKind)
      }
      return kind
    }
    case 'Identifier': {
      const name = node['name'] as string
      if (facts.timestamps.has(name)) return 'timestamp'
      return facts.durations.get(name) ?? (namedDuration(name) ? 'duration' : undefined)
    }
    case 'MemberExpression': {
      const name = propertyName(node)
      if (name !== undefined && (facts.properties.has(name) || namedDuration(name)))
        return facts.properties.get(name) ?? 'duration'
      if (node['computed']) {
        const objectKind = kindOf(node['object'] as Node, facts)
        if (objectKind === 'duration' || objectKind === 'ratio') return objectKind
      }
      return undefined
    }
    case 'BinaryExpression': {
      const left = kindOf(node['left'] as Node, facts)
      const right = kindOf(node['right'] as Node, facts)
      const operator = node['operator'] as string
      if (operator === '-' && left === 'timestamp' && right === 'timestamp') return 'duration'
      if (operator === '-' || operator === '+') {
        if (left === 'timestamp' && right !== 'ratio') return 'timestamp'
        return stronger(left === 'timestamp' ? undefined : left, right === 'timestamp' ? undefined : right)
      }
      if (operator === '/' && isMeasured(left) && isMeasured(right)) return 'ratio'
      if (operator === '*' || operator === '/' || operator === '%') return stronger(measured(left), measured(right))
      return undefined
    }
    case 'AwaitExpression':
    case 'UnaryExpression':
    case 'ChainExpression':
    case 'TSNonNullExpression':
      return kindOf((node['argument'] ?? node['expression']) as Node, facts)
    case 'ConditionalExpression':
      return stronger(kindOf(node['consequent'] as Node, facts), kindOf(node['alternate'] as Node, facts))
    case 'LogicalExpression':
      return stronger(kindOf(node['left'] as Node, facts), kindOf(node['right'] as Node, facts))
    case 'ArrayExpression':
      return (node['elements'] as (Node | null)[]).reduce<Kind>(
        (k, e) => stronger(k, measured(kindOf(e ?? undefined, facts))),
        undefined,
      )
    default:
      return undefined
  }
}

const isMeasured = (kind: Kind): boolean => kind === 'duration' || kind === 'ratio'
const measured = (kind: Kind): Kind => (isMeasured(kind) ? kind : undefined)

/** Learns, until nothing new, which names, properties and functions of the file hold measurements. */
const learn = (program: Node): Facts => {
  const facts: Facts = { timestamps: new Set(), durations: new Map(), properties: new Map(), functions: new Map() }
  const note = (map: Map<string, 'duration' | 'ratio'>, name: string, kind: Kind): boolean => {
    if (!isMeasured(kind)) return false
    const before = map.get(name)
    const after = stronger(before, kind) as 'duration' | 'ratio'
    if (before === after) return false
    map.set(name, after)
    return true
  }
  const bind = (name: string, kind: Kind): boolean => {
    if (kind === 'timestamp') {
      if (facts.timestamps.has(name) || facts.durations.has(name)) return false
      facts.timestamps.add(name)
      return true
    }
    const changed = note(facts.durations, name, kind)
    if (changed) facts.timestamps.delete(name)
    return changed
  }
  const bindPattern = (pattern: Node, kind: Kind): boolean => {
    if (pattern.type === 'Identifier') return bind(pattern['name'] as string, kind)
    let changed = false
    if (pattern.type === 'ObjectPattern') {
      for (const property of pattern['properties'] as Node[]) {
        if (property.type !== 'Property') continue
        const key = property['key'] as Node
        const name = key.type === 'Identifier' ? (key['name'] as string) : undefined
        const value = property['value'] as Node
        if (name !== undefined && value.type === 'Identifier' && facts.properties.has(name))
          changed = bind(value['name'] as string, facts.properties.get(name)) || changed
      }
    }
    return changed
  }
  // The nodes that teach something, found once, then learnt from again until nothing new comes of them.
  const teaching: Node[] = []
  walk(program, (node) => {
    if (/^(VariableDeclarator|FunctionDeclaration|AssignmentExpression|Property|CallExpression)$/.test(node.type))
      teaching.push(node)
  })
  const returns = new Map<Node, Node[]>()
  const returnKind = (fn: Node): Kind => {
    let found = returns.get(fn)
    if (!found) returns.set(fn, (found = returned(fn)))
    return found.reduce<Kind>((k, r) => stronger(k, kindOf(r, facts)), undefined)
  }
  for (let changed = true; changed;) {
    changed = false
    for (const node of teaching) {
      if (node.type === 'VariableDeclarator' && node['init']) {
        const init = node['init'] as Node
        const id = node['id'] as Node
        if (isFunction(init) && id.type === 'Identifier')
          changed = note(facts.functions, id['name'] as string, returnKind(init)) || changed
        else changed = bindPattern(id, kindOf(init, facts)) || changed
      } else if (node.type === 'FunctionDeclaration' && node['id']) {
        changed = note(facts.functions, (node['id'] as Node)['name'] as string, returnKind(node)) || changed
      } else if (node.type === 'AssignmentExpression') {
        const target = node['left'] as Node
        const kind = kindOf(node['right'] as Node, facts)
        if (target.type === 'Identifier') changed = bind(target['name'] as string, kind) || changed
        const name = propertyName(target)
        if (name !== undefined) changed = note(facts.properties, name, kind) || changed
      } else if (node.type === 'Property' && node['key']) {
        const key = node['key'] as Node
        const name = key.type === 'Identifier' ? (key['name'] as string) : (key['value'] as string | undefined)
        const value = node['value'] as Node
        if (typeof name === 'string' && !isFunction(value))
          changed = note(facts.properties, name, kindOf(value, facts)) || changed
      } else if (node.type === 'CallExpression') {
        // times.push(duration): an array of durations.
        const callee = node['callee'] as Node
        if (propertyName(callee) === 'push' && (callee['object'] as Node).type === 'Identifier') {
          const kind = (node['arguments'] as Node[]).reduce<Kind>(
            (k, a) => stronger(k, measured(kindOf(a, facts))),
            undefined,
          )
          changed = bind((callee['object'] as Node)['name'] as string, kind) || changed
        }
      }
    }
  }
  return facts
}

/**
 * The measured durations of an expression, each with its sign in it (+1 or -1): `a - b` turns `b`'s
 * sign, `a / b` too; a ratio of two measurements counts twice.
 */
const terms = (node: Node | undefined, sign: number, facts: Facts): number[] => {
  if (!node) return []
  const kind = kindOf(node, facts)
  if (!isMeasured(kind)) return []
  if (node.type === 'BinaryExpression') {
    const operator = node['operator'] as string
    const left = node['left'] as Node
    const right = node['right'] as Node
    if (operator === '-' && kindOf(left, facts) === 'timestamp') return [sign]
    if (operator === '-') return [...terms(left, sign, facts), ...terms(right, -sign, facts)]
    if (operator === '+' || operator === '*') return [...terms(left, sign, facts), ...terms(right, sign, facts)]
    if (operator === '/') return [...terms(left, sign, facts), ...terms(right, -sign, facts)]
  }
  if (node.type === 'UnaryExpression' && node['operator'] === '-') return terms(node['argument'] as Node, -sign, facts)
  if (node.type === 'AwaitExpression') return terms(node['argument'] as Node, sign, facts)
  return kind === 'ratio' ? [sign, -sign] : [sign]
}

const comparators: Record<string, 'lt' | 'gt' | 'close'> = {
  toBeLessThan: 'lt',
  toBeLessThanOrEqual: 'lt',
  toBeGreaterThan: 'gt',
  toBeGreaterThanOrEqual: 'gt',
  toBeCloseTo: 'close',
}

/** The `expect(…)` call at the root of a matcher chain, and whether `.not` turned it round. */
const expectation = (callee: Node): { subject: Node | undefined; negated: boolean } | undefined => {
  let negated = false
  let object = callee['object'] as Node
  while (object.type === 'MemberExpression') {
    if (propertyName(object) === 'not') negated = !negated
    object = object['object'] as Node
  }
  if (object.type !== 'CallExpression') return undefined
  const name = memberPath(object['callee'] as Node)
  if (name !== 'expect' && name !== 'expect.soft') return undefined
  return { subject: (object['arguments'] as Node[])[0], negated }
}

/** The comparisons a condition holds (through `&&`, `||` and `!`), each as [smaller, larger]. */
const comparisons = (node: Node | undefined, negated = false): [Node, Node][] => {
  if (!node) return []
  if (node.type === 'LogicalExpression')
    return [...comparisons(node['left'] as Node, negated), ...comparisons(node['right'] as Node, negated)]
  if (node.type === 'UnaryExpression' && node['operator'] === '!')
    return comparisons(node['argument'] as Node, !negated)
  if (node.type !== 'BinaryExpression') return []
  const left = node['left'] as Node
  const right = node['right'] as Node
  const less = node['operator'] === '<' || node['operator'] === '<='
  const more = node['operator'] === '>' || node['operator'] === '>='
  if (!less && !more) return []
  return less !== negated ? [[left, right]] : [[right, left]]
}

/** What is wrong with holding `smaller` below `larger`, if anything. */
const verdict = (smaller: Node, larger: Node, facts: Facts, close = false): string | undefined => {
  const signs = [...terms(larger, 1, facts), ...terms(smaller, -1, facts)]
  if (signs.length >= 2) return 'compares one measured duration with another'
  if (signs.length === 1 && (close || signs[0]! < 0)) return 'bounds a measured duration from above'
  return undefined
}

/** Parses a test file (TypeScript or JavaScript); line numbers are the file's. */
const program = (source: string, typescript: boolean): Node => {
  let text = source
  if (typescript) {
    // Types become blanks, so every position stays where it was. Its "experimental" warning is no news.
    const emit = process.emitWarning
    process.emitWarning = (() => {}) as typeof process.emitWarning
    try {
      text = stripTypeScriptTypes(source)
    } finally {
      process.emitWarning = emit
    }
  }
  return parse(text, { ecmaVersion: 'latest', sourceType: 'module', locations: true }) as unknown as Node
}

/** The stopwatch assertions of one file's source (see the heuristic above). */
export const stopwatchAssertions = (source: string, typescript = true): StopwatchAssertion[] => {
  const root = program(source, typescript)
  const facts = learn(root)
  const found: StopwatchAssertion[] = []
  const flag = (node: Node, reason: string | undefined) => {
    if (reason === undefined) return
    found.push({
      line: node.loc!.start.line,
      text: source.slice(node.start, node.end).replace(/\s+/g, ' '),
      reason,
    })
  }
  walk(root, (node) => {
    if (node.type !== 'CallExpression') return
    const callee = node['callee'] as Node
    const args = node['arguments'] as Node[]
    const matcher = propertyName(callee)
    const expected = callee.type === 'MemberExpression' ? expectation(callee) : undefined
    if (matcher !== undefined && expected !== undefined) {
      const comparator = comparators[matcher]
      if (comparator === 'close') flag(node, verdict(expected.subject!, args[0]!, facts, true))
      else if (comparator !== undefined) {
        const [subject, bound] = [expected.subject!, args[0]!]
        const below = (comparator === 'lt') !== expected.negated
        flag(node, below ? verdict(subject, bound, facts) : verdict(bound, subject, facts))
      } else if (/^(toBe|toEqual|toStrictEqual|toBeTruthy|toBeFalsy)$/.test(matcher)) {
        const value = args[0]
        const falsy =
          matcher === 'toBeFalsy' || (value?.type === 'Literal' && value['value'] === false)
            ? !expected.negated
            : expected.negated
        if (
          matcher === 'toBeTruthy' ||
          matcher === 'toBeFalsy' ||
          (value?.type === 'Literal' && typeof value['value'] === 'boolean')
        )
          for (const [smaller, larger] of comparisons(expected.subject, falsy))
            flag(node, verdict(smaller, larger, facts))
      }
      return
    }
    const name = memberPath(callee)
    const condition = name === 'assert' || name === 'assert.ok' ? args[0] : name === 'check' ? args[1] : undefined
    for (const [smaller, larger] of comparisons(condition)) flag(node, verdict(smaller, larger, facts))
  })
  return found
}
