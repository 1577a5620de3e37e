// Process entry of the keeper daemon (`npm run keeper`, and the bundled single executable).
import { main } from './main.js'

main().catch((err: unknown) => {
  process.stderr.write(`keeper: ${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
})
