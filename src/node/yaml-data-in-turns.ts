import { setImmediate as nextTurn } from 'node:timers/promises'
import { yamlDataSteps } from './yaml-data-parser.js'

/**
 * {@link yamlDataSteps} with a turn of the event loop at each pause, so that
 * other clients are served while a large upload's text is read. Building
 * the document from what was read is still done in one piece.
 */
export const parseYamlDataInTurns = async (text: string): Promise<unknown> => {
  const steps = yamlDataSteps(text)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    await nextTurn()
  }
}
