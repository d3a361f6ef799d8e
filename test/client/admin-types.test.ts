import { describe, expectTypeOf, it } from 'vitest'
import type * as Client from '../../src/client/index.js'
import type { MockClient } from '../../src/client/index.js'
import type { AdminAnswer, AdminInput, AdminQuery } from '../../src/client/admin-operations.js'
import type { components } from '../../src/generated/admin-types.js'
import type { Shaping as ServerShaping } from '../../src/core/notes/request-notes.js'
import type { JournalEntry as ServerJournalEntry } from '../../src/core/journal/journal-entry.js'
import type { RequestList as ServerRequestList } from '../../src/core/journal/requests-routes.js'
import type * as ServerHar from '../../src/core/journal/har.js'
import type * as ServerPact from '../../src/core/coverage/pact-document.js'
import type * as ServerPactSeed from '../../src/core/coverage/pact-seed.js'

type Schemas = components['schemas']

type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>

// Checked by `npm run typecheck` (tsc reads test/): a client type that is not the document's fails it.
describe('the typed client’s admin types come from admin-openapi.yaml (src/generated/admin-types.ts)', () => {
  it('requests and answers are the generated ones', () => {
    expectTypeOf<Answer<MockClient['health']>>().toEqualTypeOf<AdminAnswer<'getHealth', 200>>()
    expectTypeOf<Parameters<MockClient['faults']['add']>[0]>().toEqualTypeOf<AdminInput<'addFaultRule'>>()
    expectTypeOf<Answer<MockClient['faults']['add']>>().toEqualTypeOf<AdminAnswer<'addFaultRule', 201>>()
    expectTypeOf<Parameters<MockClient['faults']['put']>[1]>().toEqualTypeOf<AdminInput<'putFaultRule'>>()
    expectTypeOf<Answer<MockClient['faults']['put']>['rule']>().toEqualTypeOf<AdminAnswer<'putFaultRule', 201>>()
    expectTypeOf<Answer<MockClient['faults']['put']>['rule']>().toEqualTypeOf<AdminAnswer<'putFaultRule', 200>>()
    expectTypeOf<Answer<MockClient['faults']['list']>>().toEqualTypeOf<AdminAnswer<'listFaultRules', 200>['faults']>()
    expectTypeOf<Answer<MockClient['state']['get']>>().toEqualTypeOf<AdminAnswer<'getState', 200>['pets']>()
    expectTypeOf<Parameters<MockClient['seed']>[0]>().toEqualTypeOf<AdminInput<'seedPets'>>()
    expectTypeOf<Answer<MockClient['snapshot']['get']>>().toEqualTypeOf<AdminAnswer<'getSnapshot', 200>>()
    expectTypeOf<Answer<MockClient['clock']['get']>>().toEqualTypeOf<AdminAnswer<'getClock', 200>>()
    expectTypeOf<Answer<MockClient['rateLimit']['set']>>().toEqualTypeOf<AdminAnswer<'setRateLimit', 200>>()
    expectTypeOf<Answer<MockClient['deprecations']>>().toEqualTypeOf<
      AdminAnswer<'getDeprecations', 200>['deprecations']
    >()
    expectTypeOf<Answer<MockClient['coverage']>>().toEqualTypeOf<AdminAnswer<'getCoverage', 200>>()
    expectTypeOf<Answer<MockClient['sessions']['list']>>().toEqualTypeOf<AdminAnswer<'listSessions', 200>['sessions']>()
    expectTypeOf<Answer<MockClient['requests']['list']>>().toEqualTypeOf<AdminAnswer<'listRequests', 200>['requests']>()
    expectTypeOf<Answer<MockClient['requests']['waitFor']>>().toEqualTypeOf<
      AdminAnswer<'listRequests', 200>['requests'][number]
    >()
    expectTypeOf<Answer<MockClient['requests']['har']>>().toEqualTypeOf<AdminAnswer<'exportHar', 200>>()
    expectTypeOf<Answer<MockClient['pact']>>().toEqualTypeOf<AdminAnswer<'getPact', 200>>()
    expectTypeOf<Parameters<MockClient['providerState']>[0]>().toEqualTypeOf<AdminInput<'setUpProviderState'>>()
    // The name PUT gives a rule is in the answer, as the document says.
    expectTypeOf<Answer<MockClient['faults']['add']>['name']>().toEqualTypeOf<string | undefined>()
  })

  it('the journal, HAR, Pact and provider-state types the client exports are the document’s schemas', () => {
    expectTypeOf<Client.Shaping>().toEqualTypeOf<Schemas['Shaping']>()
    expectTypeOf<Client.JournalEntry>().toEqualTypeOf<Schemas['JournalEntry']>()
    expectTypeOf<Client.RequestList>().toEqualTypeOf<Schemas['RequestList']>()
    expectTypeOf<Client.RequestList>().toEqualTypeOf<AdminAnswer<'listRequests', 200>>()
    expectTypeOf<Client.Har>().toEqualTypeOf<Schemas['Har']>()
    expectTypeOf<Client.HarEntry>().toEqualTypeOf<Schemas['HarEntry']>()
    expectTypeOf<Client.HarPair>().toEqualTypeOf<Schemas['HarPair']>()
    expectTypeOf<Client.PactDocument>().toEqualTypeOf<Schemas['PactDocument']>()
    expectTypeOf<Client.PactInteraction>().toEqualTypeOf<Schemas['PactInteraction']>()
    expectTypeOf<Client.ProviderState>().toEqualTypeOf<Schemas['ProviderState']>()
    expectTypeOf<Client.StateChangeRequest>().toEqualTypeOf<Schemas['StateChangeRequest']>()
    expectTypeOf<Client.JournalQuery>().toEqualTypeOf<Omit<AdminQuery<'listRequests'>, 'count' | 'wait'>>()
    expectTypeOf<Parameters<MockClient['requests']['list']>[0]>().toEqualTypeOf<Client.JournalQuery | undefined>()
    expectTypeOf<Parameters<MockClient['requests']['har']>[0]>().toEqualTypeOf<Client.JournalQuery | undefined>()
  })

  it('the server builds those answers as the same generated types (none written twice)', () => {
    expectTypeOf<ServerShaping>().toEqualTypeOf<Schemas['Shaping']>()
    expectTypeOf<ServerJournalEntry>().toEqualTypeOf<Schemas['JournalEntry']>()
    expectTypeOf<ServerRequestList>().toEqualTypeOf<Schemas['RequestList']>()
    expectTypeOf<ServerHar.Har>().toEqualTypeOf<Schemas['Har']>()
    expectTypeOf<ServerPact.PactDocument>().toEqualTypeOf<Schemas['PactDocument']>()
    expectTypeOf<ServerPactSeed.ProviderState>().toEqualTypeOf<Schemas['ProviderState']>()
    expectTypeOf<ServerPactSeed.StateChangeRequest>().toEqualTypeOf<Schemas['StateChangeRequest']>()
  })

  it('the tight schemas keep what the server’s types said: a union on `by`, constants, the empty tuple', () => {
    expectTypeOf<Extract<Client.Shaping, { by: 'latency' }>['delayMs']>().toEqualTypeOf<number>()
    expectTypeOf<Extract<Client.Shaping, { by: 'fault' }>['ruleId']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<Extract<Client.Shaping, { by: 'fault' }>['fault']>().toEqualTypeOf<
      'connection_reset' | 'empty_response' | 'malformed_body' | 'hang' | 'drip' | undefined
    >()
    expectTypeOf<Client.Shaping['by']>().toEqualTypeOf<'override' | 'fault' | 'latency'>()
    expectTypeOf<Client.HarEntry['request']['cookies']>().toEqualTypeOf<[]>()
    expectTypeOf<Client.HarEntry['request']['headersSize']>().toEqualTypeOf<-1>()
    expectTypeOf<Client.PactDocument['metadata']['pactSpecification']['version']>().toEqualTypeOf<'4.0'>()
    expectTypeOf<Client.JournalEntry['cut']>().toEqualTypeOf<string[] | undefined>()
    type FlatShaping = {
      by: 'latency' | 'override' | 'fault'
      status?: number
      delayMs?: number
      ruleId?: number
      fault?: string
      custom?: true
      breaksContract?: true
    }
    // @ts-expect-error one flat object (as the document said before) is not the union the server answers
    expectTypeOf<Client.Shaping>().toEqualTypeOf<FlatShaping>()
  })

  it('a type that differs from the document fails typecheck', () => {
    type WithoutName = Omit<AdminAnswer<'addFaultRule', 201>, 'name'>
    // @ts-expect-error a rule without `name` is not the document's FaultRule
    expectTypeOf<Answer<MockClient['faults']['add']>>().toEqualTypeOf<WithoutName>()
    type RenamedField = Omit<AdminAnswer<'getHealth', 200>, 'uptimeSeconds'> & { uptime: number }
    // @ts-expect-error a Health with a field renamed is not the document's Health
    expectTypeOf<Answer<MockClient['health']>>().toEqualTypeOf<RenamedField>()
    type Input = Parameters<MockClient['faults']['add']>[0]
    type WithNickname = AdminInput<'addFaultRule'> & { nickname: string }
    // @ts-expect-error a rule input with a field the document does not have is not the document's input
    expectTypeOf<Input>().toEqualTypeOf<WithNickname>()
  })
})
