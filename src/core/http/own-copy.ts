/**
 * A copy of `text` that shares no memory with any other string. V8 keeps a
 * cut of a long string (`slice`, `substring`, a template that embeds one) as
 * a view on the whole of it, so keeping a 256-character prefix of a 14 KB
 * header would keep the 14 KB alive. JSON's round trip builds a new flat
 * string, exact for every UTF-16 text, lone surrogates included.
 */
export const ownCopy = (text: string): string => JSON.parse(JSON.stringify(text)) as string

/** The first `max` characters of `text`, as a string of their own ({@link ownCopy}); `text` itself when short enough. */
export const keptPrefix = (text: string, max: number): string =>
  text.length <= max ? text : ownCopy(text.slice(0, max))
