import { type BlockList, isIP } from 'node:net'
import type { AppOptions } from '../../core/app.js'
import { loopbackHostNames } from '../../core/access/admin-guard.js'
import type { Config } from './config.js'

// Made for the first IPv6 address asked about: loading Node's BlockList costs about 2 ms of every start,
// and the default host (127.0.0.1) is an IPv4 address, whose dotted form says it (127.0.0.0/8).
let loopbackAddresses: BlockList | undefined
const loopbackIpv6 = (address: string): boolean => {
  if (loopbackAddresses === undefined) {
    // Read here, not imported: the bundle reads a built-in's imports as it loads (scripts/bundle.mjs).
    loopbackAddresses = new (process.getBuiltinModule('node:net').BlockList)()
    loopbackAddresses.addSubnet('127.0.0.0', 8, 'ipv4')
    loopbackAddresses.addAddress('::1', 'ipv6')
  }
  return loopbackAddresses.check(address, 'ipv6')
}

/** Whether an address to listen on is reachable from this machine only. */
export const isLoopback = (host: string): boolean => {
  const address = host.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  if (address === 'localhost' || address.endsWith('.localhost')) return true
  const family = isIP(address)
  return family === 4 ? address.startsWith('127.') : family === 6 && loopbackIpv6(address)
}

/** The origin as browsers send it in `Origin` (scheme://host[:port]); undefined when the text is not one. */
export const asOrigin = (text: string): string | undefined => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return undefined
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password
  return bare && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : undefined
}

// A label after the first may be `*`: any one label (petstore-mock.*.svc.cluster.local); not one of the
// last two (wildcardProblem).
const HOST_NAME = /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(\.([a-z0-9_-]+|\*))*)$/

/**
 * Why a host pattern's `*` is refused: in one of the last two labels
 * (`petstore.*`, `mock.*.*`) it matches names anyone can register
 * (`petstore.evil`, `mock.evil.com`), which would pass the DNS-rebinding
 * check. Undefined for a pattern without one there.
 */
export const wildcardProblem = (text: string): string | undefined => {
  const labels = text.toLowerCase().split('.')
  return labels.includes('*') && (labels.length < 3 || labels.slice(-2).includes('*'))
    ? 'a * may stand for a label before the last two only (petstore-mock.*.svc.cluster.local): in the last two it would match a domain anyone can register'
    : undefined
}

/**
 * A host name as the admin guard compares it (lowercase, IPv6 in brackets, no
 * port; a leading dot for a domain and its subdomains; a `*` label after the
 * first and before the last two for any one label); undefined when the text is not one.
 */
export const asHostName = (text: string): string | undefined => {
  if (wildcardProblem(text) !== undefined) return undefined
  const domain = text.startsWith('.') ? '.' : ''
  const name = text.slice(domain.length)
  let url: URL
  try {
    url = new URL(`http://${isIP(name) === 6 ? `[${name}]` : name}`)
  } catch {
    return undefined
  }
  const bare = url.port === '' && url.pathname === '/' && !url.search && !url.hash && !url.username
  return bare && HOST_NAME.test(url.hostname) && (!domain || !/^\[|\*/.test(url.hostname))
    ? `${domain}${url.hostname}`
    : undefined
}

const wildcards: readonly string[] = ['0.0.0.0', '[::]']

/**
 * Who may reach /__admin, decided from where the server listens: on a
 * loopback address only the loopback names and --allowed-hosts (DNS-rebinding
 * check); elsewhere (a container on 0.0.0.0, reached by service names) any
 * Host, unless --allowed-hosts is given.
 */
export const adminAccess = (config: Config): Required<Pick<AppOptions, 'adminCorsOrigins' | 'allowedHosts'>> => {
  const checked = isLoopback(config.host) || config.allowedHosts.length > 0
  // The address it listens on is a name it answers to (127.0.0.2, a LAN address), unless a wildcard.
  const own = asHostName(config.host)
  const listenName = own && !wildcards.includes(own) && !loopbackHostNames.includes(own) ? [own] : []
  return {
    adminCorsOrigins: config.adminCorsOrigins,
    allowedHosts: checked ? [...new Set([...listenName, ...config.allowedHosts])] : 'any',
  }
}

/** The banner lines saying how /__admin is guarded. */
export const adminAccessBanner = (config: Config): string[] => {
  const { allowedHosts } = adminAccess(config)
  const hosts =
    allowedHosts === 'any'
      ? `any Host (listening on ${config.host}, DNS-rebinding check off): on shared hosts set --admin-token and --allowed-hosts`
      : `Host ${[...loopbackHostNames, ...allowedHosts].join(', ')} only (DNS-rebinding check on)`
  const origins = config.adminCorsOrigins.length > 0 ? ` but ${config.adminCorsOrigins.join(', ')}` : ''
  return [`  hosts: /__admin answers ${hosts}`, `  pages: /__admin refuses pages of other origins${origins}`]
}
