// Marks every function of the chunks a start loads for V8 to compile up front, so that the compile
// cache holds them. Node's compile cache (module.enableCompileCache) keeps the code V8 produced when it
// compiled a module, before running it: the module's top level and the functions V8 compiled eagerly,
// never those compiled lazily on first call, which every start compiled again (createApp, the CLI, the
// first request: 2 to 3 ms of CPU). V8 compiles a function eagerly when it is parenthesised (its
// heuristic for a function about to be called), and the parentheses change nothing else.
// Plain JavaScript, run by scripts/bundle.mjs.
import { readFileSync, writeFileSync } from 'node:fs'
import { Parser } from 'acorn'

// A method, getter or setter is not an expression that parentheses may wrap.
const isMethod = (parent) =>
  parent !== undefined &&
  (parent.type === 'MethodDefinition' || (parent.type === 'Property' && (parent.method || parent.kind !== 'init')))

const functionExpressions = (node, parent, found) => {
  if ((node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') && !isMethod(parent)) {
    found.push(node)
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child !== null && typeof child === 'object' && typeof child.type === 'string') {
        functionExpressions(child, node, found)
      }
    }
  }
  return found
}

/** Rewrites one chunk with its function expressions parenthesised; returns how many. */
export const compileEagerly = (file) => {
  const code = readFileSync(file, 'utf8')
  const program = Parser.parse(code, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true })
  const marks = functionExpressions(program, undefined, []).flatMap((fn) => [
    [fn.start, '('],
    [fn.end, ')'],
  ])
  marks.sort((a, b) => a[0] - b[0])
  const parts = []
  let from = 0
  for (const [at, text] of marks) (parts.push(code.slice(from, at), text), (from = at))
  writeFileSync(file, parts.join('') + code.slice(from))
  return marks.length / 2
}

/**
 * The chunks a start always loads: the one of `entry` (imported by bin.js) and those it imports
 * statically; not those imported on demand (files, faker, yaml, Ajv).
 */
export const startChunks = (metafile, entry) => {
  const outputs = metafile.outputs
  const first = Object.keys(outputs).find((path) => outputs[path].entryPoint === entry)
  if (first === undefined) throw new Error(`no chunk for ${entry}`)
  const chunks = new Set([first])
  for (const chunk of chunks) {
    for (const { path, kind, external } of outputs[chunk].imports) {
      if (kind === 'import-statement' && !external) chunks.add(path)
    }
  }
  return [...chunks]
}
