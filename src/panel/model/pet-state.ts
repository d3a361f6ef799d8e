import type { Pet } from '../types.js'

/** Pets by status, `none` for those without one (from GET /__admin/state). */
export const countByStatus = (pets: readonly Pet[]): Record<string, number> => {
  const counts: Record<string, number> = { available: 0, pending: 0, sold: 0, none: 0 }
  for (const pet of pets) counts[pet.status ?? 'none'] = (counts[pet.status ?? 'none'] ?? 0) + 1
  return counts
}

/** The content type a pets file is sent as, from its name: YAML for .yaml/.yml, else JSON. */
export const fileContentType = (name: string): string =>
  /\.ya?ml$/i.test(name) ? 'application/yaml' : 'application/json'

/** Of files dropped or chosen together (a bundle: the snapshot and the HAR), the snapshot: the first that is no HAR. */
export const snapshotFile = (files: readonly File[]): File | undefined =>
  files.find((file) => !/\.har$/i.test(file.name)) ?? files[0]
