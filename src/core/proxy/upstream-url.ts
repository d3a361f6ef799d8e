/**
 * The base URL of a deployment: as given when its path ends with the
 * contract's base path (`…/v1`), else with the base path added; no trailing
 * slash.
 */
export const baseUrlOf = (url: string, basePath: string): string => {
  const trimmed = url.replace(/\/+$/, '')
  const path = new URL(trimmed).pathname.replace(/\/+$/, '')
  return basePath !== '' && !path.endsWith(basePath) ? trimmed + basePath : trimmed
}

/** Whether a text is an absolute http(s) URL. */
export const isHttpUrl = (text: string): boolean => {
  try {
    const { protocol } = new URL(text)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}
