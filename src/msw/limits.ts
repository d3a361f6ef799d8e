/** The ranges of the options msw shares with the server: the core's (see core/app-options.ts). */
export { optionLimits } from '../core/app-options.js'

/** How many pets faker generates when no count is given (the server's --count default). */
export const defaultFakerCount = 50
