/** The Node.js this clone's scripts run on when the machine's is too old. */
export declare const pinnedNode: string
/** True when a Node.js version (`22.12.0`, `v20.20.2`) is one the package supports: 22.12 or later. */
export declare const supportsNode: (version: string) => boolean
/** The packages of a lock file whose `engines.node` the Node.js `version` does not satisfy (optional ones left out), by name. */
export declare const engineMismatches: (
  lock: {
    name?: string
    packages?: Record<string, { name?: string; optional?: boolean; engines?: { node?: string } }>
  },
  version: string,
  satisfies: (version: string, range: string, options: { includePrerelease: boolean }) => boolean,
) => string[]
