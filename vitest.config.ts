import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'sim/**/*.test.ts', 'sandbox/ts/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'target/**', 'dashboard/**'],
    // End-to-end suites start a sandbox process each; keep them off the two cores at once.
    fileParallelism: true,
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
})
