import { ApiError } from '../http/errors.js'
import { maxFaultRules } from './rule-check.js'

/**
 * The 507 of a new fault rule or timeline in a session that holds {@link maxFaultRules} of them (a
 * timeline is kept as a rule, so both count): for the rule routes and the timeline routes alike.
 */
export const rulesFull = (): ApiError =>
  new ApiError(
    507,
    `The session holds ${maxFaultRules} fault rules and timelines together, the most it may; delete some first.`,
  )
