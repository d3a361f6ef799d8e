import type { Answer, Next, RequestContext, Stage } from '../http/stage.js'
import { whenReady } from '../async/maybe-promise.js'

/**
 * A request's own checks (its body, its validation: what refuses it with a 4xx whatever its
 * session holds), run at most once: before a session that does not exist yet is made, so that a
 * request they refuse makes none (the GUIDE: a refused request changes nothing), and otherwise at
 * their place in the chain, after the session's rules and controls, as before.
 */
export interface RequestChecks {
  /** At their place in the chain: skipped when they ran before the session was made. */
  stage: Stage
  /** Before a new session is made: the refusal, or undefined when the request passed. */
  first(c: RequestContext): Answer | undefined | Promise<Answer | undefined>
}

const passedAnswer = new Response(null)
const passed: Next = () => passedAnswer
const refusal = (answer: Response): Response | undefined => (answer === passedAnswer ? undefined : answer)

/** The {@link RequestChecks} of a body stage (none: the operation takes no body), then a validation stage. */
export const requestChecks = (body: Stage | undefined, validate: Stage): RequestChecks => {
  const run: Stage = body ? (c, next) => body(c, (c) => validate(c, next)) : validate
  const done = new WeakSet<RequestContext>()
  return {
    stage: (c, next) => (done.has(c) ? next(c) : run(c, next)),
    first: (c) => {
      done.add(c)
      return whenReady(run(c, passed), refusal)
    },
  }
}
