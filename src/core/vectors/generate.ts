// `npm run vectors`: writes vectors/share-math.json and vectors/profit-unlock.json from the
// TypeScript core.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { renderProfitUnlockVectors } from './profitUnlockVectors.js'
import { renderShareMathVectors } from './shareMathVectors.js'

for (const [name, render] of [
  ['share-math.json', renderShareMathVectors],
  ['profit-unlock.json', renderProfitUnlockVectors],
] as const) {
  const target = fileURLToPath(new URL(`../../../vectors/${name}`, import.meta.url))
  writeFileSync(target, render())
  console.log(`wrote ${target}`)
}
