import { describe, expectTypeOf, it } from 'vitest'
import type { MockClient } from '../../src/client/index.js'
import type { AdminAnswer, AdminInput } from '../../src/client/admin-operations.js'

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
    // The name PUT gives a rule is in the answer, as the document says.
    expectTypeOf<Answer<MockClient['faults']['add']>['name']>().toEqualTypeOf<string | undefined>()
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
