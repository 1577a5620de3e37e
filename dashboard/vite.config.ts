import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'
import solid from 'vite-plugin-solid'

const here = fileURLToPath(new URL('.', import.meta.url))
const sdkShim = fileURLToPath(new URL('./src/stellar-sdk.ts', import.meta.url))

/**
 * The project's own `@stellar/stellar-sdk` imports (src/chain, the app) resolve to
 * src/stellar-sdk.ts: the SDK's base and RPC client only. Packages that bring their own SDK
 * (the wallets kit) keep theirs.
 */
function slimSdk(): Plugin {
  return {
    name: 'slim-stellar-sdk',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== '@stellar/stellar-sdk' || importer === undefined || importer.includes('/node_modules/')) return null
      return sdkShim
    },
  }
}

export default defineConfig({
  root: here,
  // Relative asset URLs: the build is static files that work from any path.
  base: './',
  plugins: [slimSdk(), solid()],
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  build: {
    outDir: fileURLToPath(new URL('../target/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
  },
})
