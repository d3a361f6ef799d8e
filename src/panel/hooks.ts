import { adminErrorText } from './api/admin-client.js'
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'

/** Data loaded from the admin API: the last value, the last failure, and a way to load again. */
export interface Resource<T> {
  data: T | undefined
  error: string | undefined
  reload(): Promise<void>
}

/** The words of a failure: the server's message for admin errors. */
export const failureText = adminErrorText

/**
 * Loads `load()` now and whenever `key` changes (a new session), and on
 * `reload()`; answers to an outdated key are dropped.
 */
export const useResource = <T>(load: () => Promise<T>, key: unknown): Resource<T> => {
  const [data, setData] = useState<T>()
  const [error, setError] = useState<string>()
  const generation = useRef(0)
  const loader = useRef(load)
  loader.current = load
  const reload = useCallback(async () => {
    const mine = generation.current
    try {
      const value = await loader.current()
      if (mine !== generation.current) return
      setData(() => value)
      setError(undefined)
    } catch (failure) {
      if (mine === generation.current) setError(failureText(failure))
    }
  }, [])
  useEffect(() => {
    generation.current++
    setData(undefined)
    setError(undefined)
    void reload()
  }, [key, reload])
  return { data, error, reload }
}

/** Calls `fn` at most once per `ms`, the last call always honoured. */
export const useThrottled = (fn: () => void, ms: number): (() => void) => {
  const latest = useRef(fn)
  latest.current = fn
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const last = useRef(0)
  useEffect(() => () => clearTimeout(timer.current), [])
  return useCallback(() => {
    if (timer.current !== undefined) return
    const wait = Math.max(0, last.current + ms - Date.now())
    timer.current = setTimeout(() => {
      timer.current = undefined
      last.current = Date.now()
      latest.current()
    }, wait)
  }, [ms])
}

/** An action's failure, shown as the server words it, and a runner that records it. */
export const useAction = (): {
  error: string | undefined
  busy: boolean
  run: (action: () => Promise<void>) => Promise<boolean>
} => {
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const run = useCallback(async (action: () => Promise<void>) => {
    setBusy(true)
    try {
      await action()
      setError(undefined)
      return true
    } catch (failure) {
      setError(failureText(failure))
      return false
    } finally {
      setBusy(false)
    }
  }, [])
  return { error, busy, run }
}
