/** `petstore-mock-<session>-<stamp><suffix>`: how the server names its downloads too. */
export const downloadName = (session: string, stamp: string, suffix: string): string =>
  `petstore-mock-${session}-${stamp}${suffix}`

/** The file name a Content-Disposition header gives, if any. */
export const dispositionFilename = (header: string | null): string | undefined => {
  const match = /filename="([^"]+)"|filename=([^;\s]+)/i.exec(header ?? '')
  return match?.[1] ?? match?.[2]
}
