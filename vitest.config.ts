import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['{core,sim,conformance,scenarios,cli,examples}/**/*.test.ts'],
    testTimeout: 20_000,
  },
})
