/** What the build reads, relative to the package root. */
export declare const buildInputs: readonly string[]
/** Where the fingerprint of the last successful build is kept, relative to the package root. */
export declare const stampFile: string
/** The fingerprint of the build's inputs in `root`. */
export declare const fingerprint: (root: string) => string
/** Whether dist/ in `root` is missing, or was built from other inputs than those there now. */
export declare const isStale: (root: string) => boolean
/** Records the inputs in `root` as built. */
export declare const writeStamp: (root: string) => void
