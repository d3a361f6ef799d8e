/** Prints one check's line ("ok   …" or "FAIL …: detail"); a failed check counts. */
export declare const check: (label: string, ok: boolean, detail?: string) => void

/** Exits 0 when every check so far passed, 1 otherwise. */
export declare const finish: () => never

/** A request to `base` answered within 10 s, its body parsed as JSON when there is one. */
export declare const client: (
  base: string,
) => (path: string, init?: RequestInit) => Promise<{ status: number; headers: Headers; body: any }>
