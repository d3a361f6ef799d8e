import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'

/** A seeded source of random draws: the same seed gives the same sequence. */
export interface Random {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [min, max]. */
  int(min: number, max: number): number
}

/** A Random seeded with `seed` (xoroshiro128+). */
export const createRandom = (seed: number): Random => {
  const rng = xoroshiro128plus(seed)
  return {
    next: () => uniformFloat64(rng),
    int: (min, max) => uniformInt(rng, min, max),
  }
}
