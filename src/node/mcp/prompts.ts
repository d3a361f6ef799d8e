/** One prompt of the MCP server: the three users' common jobs (issue 42). */
export interface PromptSpec {
  name: string
  description: string
  arguments: { name: string; description: string; required: boolean }[]
  text(args: Record<string, string | undefined>): string
}

/** The prompts, each a plan in the tools' own names. */
export const promptSpecs: readonly PromptSpec[] = [
  {
    name: 'reproduce_staging_failure',
    description:
      'Reproduce a staging failure in a session of the mock, from a HAR or a description: rules, then a bundle.',
    arguments: [
      { name: 'session', description: 'The session to build it in (e.g. repro-1).', required: true },
      {
        name: 'failure',
        description: 'What failed: a description, or a HAR (JSON) of the failing calls.',
        required: true,
      },
    ],
    text: ({ session, failure }) =>
      [
        `Reproduce this staging failure in the petstore-mock session "${session}":`,
        '',
        String(failure),
        '',
        `1. session_create { session: "${session}" }.`,
        '2. For each failing call, find the operation (listPets, createPet, getPet), its status or transport fault, and what set the',
        '   client apart (API key, header, query, body). rule_set { session, name, rule } with `when` for those conditions, `status`',
        '   or `fault` (hang, drip, connection_reset…), or an own answer (`status`, `headers`, `body`, `breaksContract: true` when it',
        '   breaks openapi.yaml), and `times`/`probability` when it was intermittent.',
        '3. If the data mattered, state_replace or seed the pets; if time mattered, clock_set.',
        '4. Call the operation tools as the client did and check with journal_read and explain_request that each answer is the failure.',
        '5. bundle_export the session: the bundle is the reproduction to attach to the bug (bundle_load restores it anywhere).',
      ].join('\n'),
  },
  {
    name: 'cover_missing_responses',
    description: "Make a CI test cover the contract's responses it misses, from the session's coverage.",
    arguments: [{ name: 'session', description: 'The session the CI test ran in.', required: true }],
    text: ({ session }) =>
      [
        `Make the CI test that ran in the petstore-mock session "${session}" cover the responses it misses:`,
        '',
        `1. coverage_read { session: "${session}" }: list each documented response and input class whose count is 0.`,
        '2. For each one, say how the test gets it: an input (a missing field gives 400, an unknown id 404, no key 401), or a',
        "   rule (rule_set with `when` on the test's API key, `times: 1`) for the answers only the server decides.",
        '3. Write the test steps (and the rules it installs first through the typed client, petstore-mock/client), then run them',
        '   here with the operation tools and check coverage_read again.',
      ].join('\n'),
  },
  {
    name: 'prepare_getpet_sunset',
    description:
      'Prepare an app for the getPet sunset: move the clock past it and see what the app gets, with rules for the way there.',
    arguments: [{ name: 'session', description: 'The session to rehearse in.', required: true }],
    text: ({ session }) =>
      [
        `Rehearse the getPet sunset in the petstore-mock session "${session}":`,
        '',
        `1. getPet { session: "${session}", petId: 1 }: read its Deprecation and Sunset headers (the sunset date) and Link.`,
        '2. clock_set { session, now: <a day before the sunset>, frozen: true } and call getPet again: still answered.',
        '3. clock_set { session, advanceMs: 172800000 } (two days): getPet now answers as past its sunset (410).',
        '4. journal_read and explain_request on that answer: the stage is the sunset.',
        '5. Move the app to the replacement (listPets with a status filter) and check it with listPets; clock_set { frozen: false }',
        '   or a fresh session to go back.',
      ].join('\n'),
  },
]
