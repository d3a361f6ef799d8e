/**
 * `petstore-mock/testcontainers`: petstore-mock as a Testcontainers module (testcontainers is an
 * optional peer dependency of this package; install it next to it).
 */
export {
  defaultImage,
  type DelayOption,
  mockPort,
  PetstoreMockContainer,
  StartedPetstoreMockContainer,
} from './petstore-mock-container.js'
