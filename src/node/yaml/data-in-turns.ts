import { setImmediate as nextTurn } from 'node:timers/promises'
import { yamlDataSteps } from './data-parser.js'

/**
 * {@link yamlDataSteps} with a turn of the event loop at each pause, so that
 * other clients are served between the steps of a large upload's parse.
 */
export const parseYamlDataInTurns = async (text: string): Promise<unknown> => {
  const steps = yamlDataSteps(text)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    await nextTurn()
  }
}
