import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['{core,sim,conformance,scenarios,cli}/**/*.test.ts'],
    testTimeout: 20_000,
  },
})
