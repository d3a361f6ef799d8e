/** Most event streams open at once. */
export interface StreamCaps {
  /** On one session. */
  perSession: number
  /** On the whole server, every session together. */
  total: number
}

/** The caps of GET /__admin/requests/stream: the panel opens one stream per tab. */
export const streamCaps: StreamCaps = { perSession: 10, total: 100 }
