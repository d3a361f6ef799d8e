import { deserialize, serialize } from 'node:v8'
import { isLosslessNumber, LosslessNumber } from 'lossless-json'
import { type JsonResult, parseJsonExact } from '../../core/http/json.js'
import { nextTurn } from '../../core/async/next-turn.js'

/**
 * Values (a string counting one more per KiB) in one piece: copying one back onto the event loop
 * takes about a millisecond (100,000 pets, 500,000 values: 34–49 ms in one piece).
 */
export const pieceWeight = 32_768

/** Where a piece goes: the keys from the value's root to the array or object it adds to; null: the root itself. */
type Path = (string | number)[] | null

/**
 * One piece of a value: entries appended to the array (`keys` absent) or object at `at`. A child
 * too heavy for one piece is an empty array or object here, filled by the pieces after it. Numbers
 * JavaScript cannot hold exactly are `String` objects (a copy keeps no class) when `exact` is set.
 */
interface Piece {
  at: Path
  items: unknown[]
  keys?: string[]
  exact?: true
}

/** What the worker answers for one JSON text: the value in pieces (v8-serialised), or why it is not JSON. */
export type JsonPiecesAnswer = { pieces: ArrayBuffer[] } | { error: string }

type Container = Record<string, unknown> | unknown[]

const isContainer = (value: unknown): value is Container =>
  value !== null && typeof value === 'object' && !isLosslessNumber(value)

const entriesOf = (container: Container): [string | number, unknown][] =>
  Array.isArray(container) ? container.map((item, i) => [i, item]) : Object.entries(container)

const setOwn = (container: Container, key: string | number, value: unknown): void => {
  // Defined, not assigned: a key named __proto__ stays an ordinary own key.
  Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true })
}

/**
 * Weighs every array and object of `value` (into `weights`) and turns each inexact number into a
 * `String` object; returns the weight of `value` and whether it holds such a number (`marked`).
 */
const weigh = (value: unknown, weights: Map<Container, number>, marked: Set<Container>): number => {
  if (typeof value === 'string') return 1 + (value.length >> 10)
  if (!isContainer(value)) return 1
  let weight = 1
  let exact = false
  const item = (key: string | number, child: unknown) => {
    if (isLosslessNumber(child)) {
      setOwn(value, key, new String((child as LosslessNumber).value))
      exact = true
      weight++
      return
    }
    weight += weigh(child, weights, marked)
    if (isContainer(child) && marked.has(child)) exact = true
  }
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) item(i, value[i])
  else for (const key of Object.keys(value)) item(key, value[key])
  if (exact) marked.add(value)
  weights.set(value, weight)
  return weight
}

const emptyLike = (container: Container): Container => (Array.isArray(container) ? [] : {})

/** The pieces that fill `container` (at `path`), in order, a heavy child's own pieces after its place. */
const fill = (
  container: Container,
  path: (string | number)[],
  weights: Map<Container, number>,
  marked: Set<Container>,
  pieces: Piece[],
): void => {
  const array = Array.isArray(container)
  let piece: Piece = { at: path, items: [] }
  let weight = 0
  const flush = () => {
    if (piece.items.length === 0) return
    pieces.push(piece)
    piece = { at: path, items: [] }
    weight = 0
  }
  const add = (key: string | number, item: unknown) => {
    piece.items.push(item)
    if (!array) (piece.keys ??= []).push(key as string)
    if (isContainer(item) && marked.has(item)) piece.exact = true
    if (item instanceof String) piece.exact = true
  }
  const next = (key: string | number, item: unknown) => {
    const itemWeight = isContainer(item) ? weights.get(item)! : typeof item === 'string' ? 1 + (item.length >> 10) : 1
    if (itemWeight > pieceWeight) {
      add(key, emptyLike(item as Container))
      flush()
      fill(item as Container, [...path, key], weights, marked, pieces)
      return
    }
    if (weight + itemWeight > pieceWeight) flush()
    add(key, item)
    weight += itemWeight
  }
  if (array) for (let i = 0; i < container.length; i++) next(i, container[i])
  else for (const key of Object.keys(container)) next(key, container[key])
  flush()
}

const buffer = (piece: Piece): ArrayBuffer => {
  const bytes = serialize(piece)
  // Its own memory, to be handed over (transferred) whole.
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
}

/**
 * On the worker: parses a JSON text as {@link parseJsonExact} does and splits its value into pieces
 * of at most {@link pieceWeight}, for {@link fromPieces} to put back together a piece per turn.
 */
export const toPieces = (text: string): JsonPiecesAnswer => {
  const parsed = parseJsonExact(text)
  if (!parsed.ok) return { error: parsed.message }
  const { value } = parsed
  if (isLosslessNumber(value)) return { pieces: [buffer({ at: null, items: [new String(value.value)], exact: true })] }
  const weights = new Map<Container, number>()
  const marked = new Set<Container>()
  const weight = weigh(value, weights, marked)
  if (!isContainer(value) || weight <= pieceWeight) {
    const piece: Piece = { at: null, items: [value] }
    if (isContainer(value) && marked.has(value)) piece.exact = true
    return { pieces: [buffer(piece)] }
  }
  const pieces: Piece[] = [{ at: null, items: [emptyLike(value)] }]
  fill(value, [], weights, marked, pieces)
  return { pieces: pieces.map(buffer) }
}

/** A marked piece's numbers back as LosslessNumbers. */
const revive = (value: unknown): unknown => {
  if (value instanceof String) return new LosslessNumber(value.valueOf())
  if (!isContainer(value)) return value
  for (const [key, item] of entriesOf(value)) {
    if (item instanceof String || isContainer(item)) setOwn(value, key, revive(item))
  }
  return value
}

const at = (root: unknown, path: (string | number)[]): Container => {
  let container = root as Container
  for (const key of path) container = (container as Record<string, unknown>)[key] as Container
  return container
}

/**
 * On the event loop: the value of {@link toPieces}'s pieces, one piece copied per turn of the event
 * loop, so that other clients are answered while a large value is put together.
 */
export const fromPieces = async (buffers: readonly ArrayBuffer[]): Promise<JsonResult> => {
  let root: unknown
  for (const [i, bytes] of buffers.entries()) {
    if (i > 0) await nextTurn()
    const piece = deserialize(Buffer.from(bytes)) as Piece
    const items = piece.exact ? piece.items.map(revive) : piece.items
    if (piece.at === null) {
      root = items[0]
      continue
    }
    const container = at(root, piece.at)
    if (Array.isArray(container)) container.push(...items)
    else items.forEach((item, j) => setOwn(container, piece.keys![j]!, item))
  }
  return { ok: true, value: root }
}
