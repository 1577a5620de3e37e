import { defineConfig } from 'vitest/config'
import solid from 'vite-plugin-solid'

export default defineConfig({
  test: {
    // End-to-end suites start a sandbox process each; keep them off the two cores at once.
    fileParallelism: true,
    testTimeout: 60_000,
    hookTimeout: 300_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'sim/**/*.test.ts', 'sandbox/ts/**/*.test.ts', 'scripts/**/*.test.ts', 'dashboard/e2e/**/*.test.ts', 'dashboard/server/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'target/**'],
          environment: 'node',
        },
      },
      {
        // The dashboard's view logic and components, in happy-dom with Solid's compiler.
        extends: true,
        // vitest 3 runs on its own vite 7; the Solid plugin (typed for the app's vite 8) works on both.
        plugins: [solid() as never],
        resolve: { conditions: ['development', 'browser'] },
        test: {
          name: 'dashboard',
          include: ['dashboard/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          // Solid and its testing library run through Vite, so solid-js/web and the components
          // share Solid's browser build; loaded by Node they would get its server build, where
          // nothing is reactive.
          server: { deps: { inline: [/solid-js/, /@solidjs\/testing-library/] } },
        },
      },
    ],
  },
})
