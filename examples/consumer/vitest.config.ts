import { defineConfig } from 'vitest/config'

export default defineConfig({
  // Starting a container can take a while on a cold CI machine.
  test: { hookTimeout: 120_000, testTimeout: 30_000 },
})
