/**
 * `petstore-mock/testcontainers`: petstore-mock as a Testcontainers module (testcontainers is an
 * optional peer dependency of this package; install it next to it).
 */
// First: on a Node.js too old for Testcontainers, one line before it loads (see node-version.ts).
import './node-version.js'

export {
  defaultImage,
  type DelayOption,
  mockPort,
  PetstoreMockContainer,
  StartedPetstoreMockContainer,
} from './petstore-mock-container.js'
