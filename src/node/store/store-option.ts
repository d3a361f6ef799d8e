/** How --store must be written, for messages. */
export const storeExpectation = 'memory, or redis://[user:password@]host:port[/db] or rediss://… (TLS)'

/** The --store value when it is one (memory, or a redis:// or rediss:// URL with a host); undefined otherwise. */
export const checkStore = (text: string): string | undefined => {
  if (text === 'memory') return text
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return undefined
  }
  if ((url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') return undefined
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/(0|[1-9][0-9]?)$/.test(url.pathname)) return undefined
  return text
}

/** A store URL fit to print: its password hidden. */
export const redactStore = (store: string): string => {
  if (store === 'memory') return store
  const url = new URL(store)
  if (url.password !== '') url.password = '***'
  // ioredis also takes options from the query (…?password=…): hidden as well.
  for (const key of [...url.searchParams.keys()]) if (/pass/i.test(key)) url.searchParams.set(key, '***')
  return url.toString()
}
