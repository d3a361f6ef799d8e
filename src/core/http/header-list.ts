/**
 * Headers as a flat list, `[name, value, name, value, …]`, names as sent: one
 * array per entry, not an object per header set (what a journal of small
 * entries costs is mostly the garbage collector's work on what it keeps).
 */
export type HeaderList = readonly string[]

/**
 * An answer's headers as kept: a flat list, or the plain object (lower-case
 * names) the answer was built from, kept as it is and listed when read.
 */
export type KeptHeaders = HeaderList | Readonly<Record<string, string>>

/** Kept headers as a flat list; an object's names in the order a web `Headers` lists them (sorted). */
export const headerList = (headers: KeptHeaders): HeaderList => {
  if (Array.isArray(headers)) return headers as HeaderList
  const record = headers as Readonly<Record<string, string>>
  return Object.keys(record)
    .sort()
    .flatMap((name) => [name, record[name]!])
}

/** A header list as a record: lower-case names, repeated names joined by `, `. */
export const headerRecord = (headers: KeptHeaders): Record<string, string> => {
  const list = headerList(headers)
  // No prototype: a header named like an Object.prototype member is just a header.
  const record: Record<string, string> = Object.create(null)
  for (let i = 0; i + 1 < list.length; i += 2) {
    const name = list[i]!.toLowerCase()
    record[name] = record[name] === undefined ? list[i + 1]! : `${record[name]}, ${list[i + 1]}`
  }
  return record
}
