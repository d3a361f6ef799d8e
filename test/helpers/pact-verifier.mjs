// Runs the Pact verifier of @pact-foundation/pact (its Rust core, the Pact FFI, from npm) in a
// process of its own, so that what the core prints is this process's output for the test to read:
//   node pact-verifier.mjs PACT_FILE PROVIDER_BASE_URL PROVIDER_STATES_URL
// Exit code 0 when the provider honours the pact, 1 when it does not (the output names what failed).
import { Verifier } from '@pact-foundation/pact'

const [pactFile, providerBaseUrl, providerStatesSetupUrl] = process.argv.slice(2)
try {
  await new Verifier({
    provider: 'Pet Store',
    providerBaseUrl,
    pactUrls: [pactFile],
    providerStatesSetupUrl,
    logLevel: 'error',
  }).verifyProvider()
  process.exitCode = 0
} catch (error) {
  console.log(`verification failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
