/** `npm run demo`'s options and usage (`--help`, `-h`); scripts/demo.ts parses them. */
import type { ParseArgsOptionsConfig } from 'node:util'

export const DEMO_OPTIONS = {
  seed: { type: 'string' },
  port: { type: 'string' },
  'api-port': { type: 'string' },
  keepers: { type: 'string' },
  'ledger-interval': { type: 'string' },
  drop: { type: 'string' },
  timeout: { type: 'string' },
  once: { type: 'boolean', default: false },
  path: { type: 'string' },
  'dashboard-port': { type: 'string' },
  'no-dashboard': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsOptionsConfig

export const DEMO_USAGE = `usage: npm run demo -- [options]

Builds the contracts, starts a sandbox node, deploys a seeded world, starts competing keepers and
the dashboard, drops a collateral price and shows the liquidations the keepers book for the vault;
then keeps everything running until Ctrl-C.

options:
  --seed N                 the world's seed (default 1)
  --port N                 the sandbox's RPC port (default 8000)
  --api-port N             the first keeper's API port; the others follow (default 8080)
  --keepers N              competing keepers, 1 to 10 (default 3)
  --ledger-interval S      seconds per ledger, 0.05 to 60 (default 0.3)
  --drop PERCENT           the WETH price drop, 1 to 90 (default 20)
  --timeout SECONDS        how long to wait for a booked liquidation, 10 to 3600 (default 300)
  --path atomic|two-step   the keepers' path: executor contract or draw, fill, swap, return
                           (default atomic)
  --dashboard-port N       the dashboard's port, 0 = any free one (default 5173)
  --no-dashboard           start no dashboard (default: started)
  --once                   exit after the audit instead of running on: 0 when a liquidation was
                           booked and every invariant holds, 1 otherwise (default: off; no dashboard)
  -h, --help               this text

example:
  npm run demo -- --once --seed 2 --drop 30`
