// har-validator ships no types: the part the browser suite uses.
declare module 'har-validator' {
  /** Resolves with the document when it is valid HAR 1.2; rejects with the schema errors otherwise. */
  const validator: { har<T>(document: T): Promise<T> }
  export default validator
}
