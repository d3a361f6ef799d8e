// Shared by the container suite's Node checks (smoke.mjs, redis-replicas.mjs): each check prints
// "ok   …" or "FAIL …" a line, the lines .ci/run counts; the script's exit code says whether any failed.

let failures = 0

/** Prints one check's line; a failed check adds its detail and counts. */
export const check = (label, ok, detail = '') => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}${ok ? '' : `: ${detail}`}`)
  if (!ok) failures++
}

/** Exits 0 when every check so far passed, 1 otherwise. */
export const finish = () => process.exit(failures === 0 ? 0 : 1)

/**
 * A request to `base` answered within 10 s (a hang fails instead of stalling the suite), its
 * body parsed as JSON when there is one.
 */
export const client =
  (base) =>
  async (path, init = {}) => {
    const res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(10_000) })
    const text = await res.text()
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
  }
