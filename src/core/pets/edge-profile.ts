import type { Faker } from '@faker-js/faker'
import type { Pet, PetStatus } from '../spec/pet.js'
import type { petStatuses, toPet } from '../spec/pet.js'
import type { nextTurn } from '../async/next-turn.js'

/** Characters (code points) of the long names: far beyond what a list cell holds, well within the 1,000 a name may have. */
export const longNameChars = 200

/**
 * The edge cases of the `edge` profile, one of each in every block of 20
 * pets: a name of 200 characters (words, or one unbroken word), combining
 * accents, CJK, right-to-left text, emoji (ZWJ sequences and flags
 * included), a name of spaces only (or empty), a name that looks like HTML,
 * no `status`, and a `categoryId` at either edge of what JSON numbers hold
 * exactly (±(2^53−1), the int64 values the mock accepts).
 */
export const edgeKinds = [
  'long',
  'combining',
  'cjk',
  'rtl',
  'emoji',
  'spaces',
  'html',
  'noStatus',
  'categoryMax',
  'categoryMin',
] as const
export type EdgeKind = (typeof edgeKinds)[number]

/** Pets per block: half realistic, then one of each edge kind. */
export const edgeBlock = edgeKinds.length * 2

const names: Record<'combining' | 'cjk' | 'rtl' | 'emoji' | 'spaces' | 'html', readonly string[]> = {
  // Decomposed: a letter then its combining mark(s), the form that breaks naive length and truncation.
  combining: [
    'Zoe\u0308',
    'Rene\u0301e',
    'Chloe\u0301',
    'Bjo\u0308rn',
    'Nin\u0303o',
    'Z\u0351a\u0363\u0301l\u0316g\u0350o\u0489',
  ],
  cjk: ['小白', 'ポチ', '바둑이', '豆豆', 'タマ', '饺子', '小黑子'],
  rtl: ['قطة', 'ليلى', 'שושי', 'מקס', 'Max מקס', 'كلب 2'],
  emoji: ['🐶', 'Rex 🐕', '🐈\u200d⬛ Shadow', '👨\u200d👩\u200d👧 Family dog', '🇫🇷 Milou', '🦜🦜🦜'],
  spaces: [' ', '   ', '\u00a0\u00a0', '\u3000', ''],
  html: [
    '<b>Rex</b>',
    '<script>alert("pet")</script>',
    '"><img src=x onerror=alert(1)>',
    'Tom &amp; Jerry',
    '<!-- Luna -->',
    "Rex'); DROP TABLE pets;--",
  ],
}

/** A name of exactly {@link longNameChars} characters: pet names and spaces, or one word without a break. */
const longName = (faker: Faker): string => {
  if (faker.datatype.boolean())
    return `Wolfeschlegelsteinhausenbergerdorff${'f'.repeat(longNameChars)}`.slice(0, longNameChars)
  let name = ''
  while (name.length < longNameChars) name += `${faker.animal.petName()} `
  return `${name.slice(0, longNameChars - 1)}.`
}

/**
 * What the edge profile takes from the modules an app loads at start, passed in by seed.ts: imported here,
 * they would be split by a browser bundle into a small chunk of their own, shared with the start (msw's budget).
 */
export interface EdgeParts {
  petStatuses: typeof petStatuses
  toPet: typeof toPet
  nextTurn: typeof nextTurn
}

/**
 * `count` pets, ids 1..count, in the `edge` profile: in every block of 20,
 * the even places (1st, 3rd, …) are realistic pets (`realistic(id)`), the
 * others one of each {@link edgeKinds}, in an order the seed shuffles per
 * block. So 50 % realistic and 5 % of each kind (exactly, for a count that
 * is a multiple of 20). Every pet is a valid `Pet` within the mock's caps;
 * the same faker (seed) gives the same pets. Made `slice` pets at a time,
 * a turn of the event loop between two, so that other requests are answered
 * however large the count.
 */
export const edgePets = async (
  faker: Faker,
  count: number,
  realistic: (id: number) => Pet,
  slice: number,
  { petStatuses, toPet, nextTurn }: EdgeParts,
): Promise<Pet[]> => {
  const pets = new Array<Pet>(count)
  const statuses = [...petStatuses, undefined]
  let order: EdgeKind[] = []
  for (let id = 1; id <= count; id++) {
    if (id % slice === 0) await nextTurn()
    const place = (id - 1) % edgeBlock
    if (place === 0) order = faker.helpers.shuffle([...edgeKinds])
    if (place % 2 === 0) {
      pets[id - 1] = realistic(id)
      continue
    }
    const kind = order[(place - 1) / 2]!
    const status: PetStatus | undefined = kind === 'noStatus' ? undefined : faker.helpers.arrayElement(statuses)
    const categoryId =
      kind === 'categoryMax'
        ? Number.MAX_SAFE_INTEGER
        : kind === 'categoryMin'
          ? Number.MIN_SAFE_INTEGER
          : faker.number.int({ min: 1, max: 12 })
    const name =
      kind === 'long'
        ? longName(faker)
        : kind === 'noStatus' || kind === 'categoryMax' || kind === 'categoryMin'
          ? faker.animal.petName()
          : faker.helpers.arrayElement(names[kind])
    pets[id - 1] = toPet(id, status === undefined ? { name, categoryId } : { name, categoryId, status })
  }
  return pets
}

/** Which edge kind a pet of the `edge` profile is, by its name and fields; undefined for a realistic one (for tests and docs). */
export const edgeKindOf = (pet: Pet): EdgeKind | undefined => {
  if (pet.categoryId === Number.MAX_SAFE_INTEGER) return 'categoryMax'
  if (pet.categoryId === Number.MIN_SAFE_INTEGER) return 'categoryMin'
  if ([...pet.name].length === longNameChars) return 'long'
  for (const kind of ['combining', 'cjk', 'rtl', 'emoji', 'spaces', 'html'] as const) {
    if (names[kind].includes(pet.name)) return kind
  }
  return undefined
}
