import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import solid from 'vite-plugin-solid'

const here = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root: here,
  // Relative asset URLs: the build is static files that work from any path.
  base: './',
  plugins: [solid()],
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  build: {
    outDir: fileURLToPath(new URL('../target/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
  },
})
