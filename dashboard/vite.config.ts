import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import solid from 'vite-plugin-solid'

const here = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root: here,
  // Relative asset URLs: the build is static files that work from any path.
  base: './',
  plugins: [solid()],
  resolve: {
    // The SDK's prebuilt browser bundle without axios and eventsource (the dashboard uses only
    // Stellar RPC through fetch): about 50 KB gzipped less than the full one.
    alias: [{ find: /^@stellar\/stellar-sdk$/, replacement: '@stellar/stellar-sdk/minimal' }],
  },
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  build: {
    outDir: fileURLToPath(new URL('../target/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
  },
})
