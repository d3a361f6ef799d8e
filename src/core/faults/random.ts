import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus'

/** The position of a generator: xoroshiro128+'s four 32-bit words, each a signed int32. */
export type RandomState = readonly [number, number, number, number]

/** A seeded source of random draws: the same seed gives the same sequence. */
export interface Random {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [min, max]. */
  int(min: number, max: number): number
  /** Where the sequence stands: {@link restoreRandom} continues from here. */
  state(): RandomState
}

const wrap = (rng: ReturnType<typeof xoroshiro128plus>): Random => ({
  next: () => uniformFloat64(rng),
  int: (min, max) => uniformInt(rng, min, max),
  state: () => rng.getState() as unknown as RandomState,
})

/** A Random seeded with `seed` (xoroshiro128+). */
export const createRandom = (seed: number): Random => wrap(xoroshiro128plus(seed))

/** A Random that continues exactly where the one whose `state()` this is stood. */
export const restoreRandom = (state: RandomState): Random => wrap(xoroshiro128plusFromState(state))
