import type { Pet } from '../../src/core/spec/pet.js'

/**
 * The one pet most suites seed their app with (id 1, `a`, category 1), and what a suite adds to it
 * (`onePet({ status: 'sold' })`). A new array each call: no suite's store shares another's.
 */
export const onePet = (extra: Partial<Pet> = {}): Pet[] => [{ id: 1, name: 'a', categoryId: 1, ...extra }]
