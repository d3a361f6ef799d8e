/** A data file that cannot be used; the message names the file. */
export class DataFileError extends Error {
  override name = 'DataFileError'
}
