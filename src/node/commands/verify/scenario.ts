import type { ObservedAnswer } from '../../../core/spec/answer-drifts.js'
import { badBodies, validBody } from './bad-bodies.js'
import type { RunContext } from './run-context.js'

type PetLike = { id?: unknown; categoryId?: unknown; status?: unknown; name?: unknown }

const pets = (answer: ObservedAnswer | undefined): PetLike[] =>
  Array.isArray(answer?.json) ? (answer.json as PetLike[]).filter((p) => p && typeof p === 'object') : []

/** An id that no deployment is likely to have: the largest id JavaScript holds exactly. */
export const absentId = Number.MAX_SAFE_INTEGER

const itemsAtMost = (operation: string, limit: number) => (answer: ObservedAnswer) =>
  pets(answer).length <= limit ? [] : [`${operation}: ${pets(answer).length} items with limit ${limit}`]

/** The reads: 401s, listPets with its default, limit and status, getPet's 404, and an existing pet read. */
const reads = async (ctx: RunContext): Promise<PetLike[]> => {
  const malformed = 'Bearer not a well-formed token'
  await ctx.run({
    id: 'listPets.401.no-key',
    operation: 'listPets',
    title: 'listPets without a key → 401',
    probe: { method: 'GET', path: '/pets' },
    expected: 401,
  })
  await ctx.run({
    id: 'listPets.401.malformed-key',
    operation: 'listPets',
    title: 'listPets with a malformed key → 401',
    probe: { method: 'GET', path: '/pets', authorization: malformed },
    expected: 401,
  })
  await ctx.run({
    id: 'getPet.401.no-key',
    operation: 'getPet',
    title: 'getPet without a key → 401, deprecation headers',
    probe: { method: 'GET', path: '/pets/1' },
    expected: 401,
  })
  const listed = await ctx.run({
    id: 'listPets.200',
    operation: 'listPets',
    title: 'listPets → 200 Pets, at most the default limit',
    probe: { method: 'GET', path: '/pets', authorization: ctx.bearer },
    expected: 200,
    extra: itemsAtMost(
      'listPets',
      Number(ctx.operation('listPets')?.parameters.find((p) => p.name === 'limit')?.schema.default ?? Infinity),
    ),
  })
  await ctx.run({
    id: 'listPets.200.limit',
    operation: 'listPets',
    title: 'listPets?limit=1 → 200, at most 1 item',
    probe: { method: 'GET', path: '/pets?limit=1', authorization: ctx.bearer },
    expected: 200,
    extra: itemsAtMost('listPets', 1),
  })
  const status = statusValues(ctx)[0]
  if (status !== undefined) {
    await ctx.run({
      id: 'listPets.200.status',
      operation: 'listPets',
      title: `listPets?status=${status} → 200, only ${status} pets`,
      probe: { method: 'GET', path: `/pets?status=${status}&limit=100`, authorization: ctx.bearer },
      expected: 200,
      extra: (answer) => {
        const other = pets(answer).findIndex((p) => p.status !== status)
        return other < 0
          ? []
          : [`listPets: item ${other} has status ${JSON.stringify(pets(answer)[other]!.status)} with status=${status}`]
      },
    })
  }
  await ctx.run({
    id: 'getPet.404',
    operation: 'getPet',
    title: `getPet of an absent id (${absentId}) → 404, deprecation headers`,
    probe: { method: 'GET', path: `/pets/${absentId}`, authorization: ctx.bearer },
    expected: 404,
  })
  const first = pets(listed)[0]
  if (first === undefined || !Number.isSafeInteger(first.id)) {
    ctx.skip(
      { id: 'getPet.200.listed', operation: 'getPet', title: 'getPet of a listed pet → 200' },
      'listPets listed no pet with an integer id',
    )
  } else {
    await readBack(ctx, 'getPet.200.listed', 'getPet of a listed pet → 200 Pet, deprecation headers', first, false)
  }
  return pets(listed)
}

/** getPet of a pet: the same id (a listed pet), or the very same pet (`whole`: the one just created). */
const readBack = (ctx: RunContext, id: string, title: string, pet: PetLike, whole: boolean) =>
  ctx.run({
    id,
    operation: 'getPet',
    title,
    probe: { method: 'GET', path: `/pets/${pet.id}`, authorization: ctx.bearer },
    expected: 200,
    extra: (answer) => {
      const read = answer.json as PetLike
      if (whole ? JSON.stringify(read) === JSON.stringify(pet) : read.id === pet.id) return []
      return [`getPet: pet ${pet.id} reads ${answer.text}, it was ${JSON.stringify(pet)}`]
    },
  })

/** The status enum of listPets' filter (the contract's PetStatus). */
export const statusValues = (ctx: RunContext): string[] =>
  (ctx.operation('listPets')?.parameters.find((p) => p.name === 'status')?.schema.enum ?? []).map(String)

/** The writes: createPet's 401 and each kind of 400, then a 201 read back and listed. */
const writes = async (ctx: RunContext, categoryId: number): Promise<void> => {
  const createPet = ctx.operation('createPet')
  const valid = createPet ? JSON.stringify(validBody(ctx.settings.spec, createPet, categoryId)) : '{}'
  await ctx.run({
    id: 'createPet.401.no-key',
    operation: 'createPet',
    title: 'createPet without a key → 401',
    write: true,
    probe: { method: 'POST', path: '/pets', body: valid },
    expected: 401,
  })
  for (const bad of createPet ? badBodies(ctx.settings.spec, createPet, categoryId) : []) {
    await ctx.run({
      id: `createPet.400.${bad.label.replace(/[^a-z0-9]+/gi, '-')}`,
      operation: 'createPet',
      title: `createPet with a body ${bad.label} → 400`,
      write: true,
      probe: { method: 'POST', path: '/pets', authorization: ctx.bearer, body: bad.body },
      expected: 400,
    })
  }
  const sent = JSON.parse(valid) as Record<string, unknown>
  const created = await ctx.run({
    id: 'createPet.201',
    operation: 'createPet',
    title: 'createPet → 201 Pet, the fields sent',
    write: true,
    probe: { method: 'POST', path: '/pets', authorization: ctx.bearer, body: valid },
    expected: 201,
    extra: (answer) => {
      const pet = answer.json as Record<string, unknown>
      const changed = Object.keys(sent).find((k) => JSON.stringify(pet[k]) !== JSON.stringify(sent[k]))
      return changed === undefined
        ? []
        : [`createPet: ${changed} sent ${JSON.stringify(sent[changed])}, answered ${JSON.stringify(pet[changed])}`]
    },
  })
  // A pet answered with another 2xx (a status drift, reported) is still read back.
  const pet = created && created.status >= 200 && created.status < 300 ? (created.json as PetLike) : undefined
  const title = 'the created pet read back by getPet → 200'
  const listTitle = 'the created pet in listPets?limit=100'
  if (!pet || typeof pet !== 'object' || !Number.isSafeInteger(pet.id)) {
    const note = ctx.settings.writes ? 'no pet was created' : '--no-writes'
    ctx.skip({ id: 'getPet.200.created', operation: 'getPet', title }, note)
    ctx.skip({ id: 'listPets.200.created', operation: 'listPets', title: listTitle }, note)
    return
  }
  await readBack(ctx, 'getPet.200.created', title, pet, true)
  const status = typeof pet.status === 'string' ? `&status=${pet.status}` : ''
  await ctx.run({
    id: 'listPets.200.created',
    operation: 'listPets',
    title: listTitle,
    probe: { method: 'GET', path: `/pets?limit=100${status}`, authorization: ctx.bearer },
    expected: 200,
    extra: (answer) => {
      const listed = pets(answer)
      // A full page may stop before the new pet: the contract does not say in which order pets come.
      if (listed.some((p) => p.id === pet.id) || listed.length >= 100) return []
      return [`listPets: pet ${pet.id}, created, is not listed (${listed.length} pets listed)`]
    },
  })
}

/** Runs the scenario derived from the contract; returns the pets listed (the silences' probes use them). */
export const runScenario = async (ctx: RunContext): Promise<PetLike[]> => {
  const listed = await reads(ctx)
  await writes(ctx, categoryOf(listed))
  return listed
}

/** A categoryId the deployment knows: the first listed pet's, else 1. */
export const categoryOf = (listed: readonly PetLike[]): number => {
  const id = listed.find((p) => Number.isSafeInteger(p.categoryId))?.categoryId
  return typeof id === 'number' ? id : 1
}
