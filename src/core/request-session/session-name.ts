/** The header that selects an isolated session. */
export const sessionHeader = 'X-Mock-Session'

const SESSION_NAME = /^[A-Za-z0-9._-]{1,64}$/

/** Whether a session name is acceptable: 1 to 64 of A-Z a-z 0-9 . _ - */
export const isSessionName = (name: string): boolean => SESSION_NAME.test(name)
