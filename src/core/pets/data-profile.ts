/**
 * The data profiles of generated pets: `realistic`, faker's pet names (what
 * `--faker` always made), and `edge`, which mixes those with the data that
 * finds layout and escaping bugs (edge-profile.ts's edgeKinds, loaded by fakePets only for `edge`).
 */
export const dataProfiles = ['realistic', 'edge'] as const
export type DataProfile = (typeof dataProfiles)[number]

/** `must be one of realistic, edge`: for messages. */
export const dataProfileExpectation = `one of ${dataProfiles.join(', ')}`

export const isDataProfile = (value: unknown): value is DataProfile => dataProfiles.includes(value as DataProfile)
