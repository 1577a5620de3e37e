import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import solid from 'vite-plugin-solid'
import { precompress } from './server/precompress.js'

const here = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig(({ command }) => ({
  root: here,
  // Relative asset URLs: the build is static files that work from any path.
  base: './',
  plugins: [solid(), precompress()],
  // A build is for production whatever NODE_ENV the building process has (vitest sets "test",
  // which would otherwise resolve Solid's development build into the bundle).
  ...(command === 'build' ? { define: { 'process.env.NODE_ENV': '"production"' }, resolve: { conditions: ['module', 'browser', 'production'] } } : {}),
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  build: {
    outDir: fileURLToPath(new URL('../target/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
  },
}))
