// `npm run vectors`: writes vectors/share-math.json from the TypeScript core.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { renderShareMathVectors } from './shareMathVectors.js'

const target = fileURLToPath(new URL('../../../vectors/share-math.json', import.meta.url))
writeFileSync(target, renderShareMathVectors())
console.log(`wrote ${target}`)
