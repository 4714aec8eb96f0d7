import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['{core,sim,conformance,scenarios,report,cli,examples}/**/*.test.ts', 'scripts/layout.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 20_000,
  },
})
