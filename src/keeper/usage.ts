/**
 * `npm run keeper -- --help` (and `-h`): the keeper takes its settings from the environment
 * (and `.env`), not flags; this lists every variable the configuration reads (config.ts
 * CONFIG_KEYS) with its default. src/keeper/README.md#configuration describes each in full.
 */
export const KEEPER_USAGE = `usage: npm run keeper                  start the keeper daemon (settings from the environment and .env)
       npm run keeper -- healthcheck   exit 0 when the running keeper's API answers /healthz
       npm run keeper -- --help        this text (also -h)

The keeper has no flags: it reads these environment variables (a .env file in the working
directory too; a variable set in the environment wins). Defaults in brackets.

identity and credentials
  KEEPER_SECRET           the operator's secret seed, S... [required, or KEEPER_SECRET_FILE]
  KEEPER_SECRET_FILE      a file holding the seed, read when KEEPER_SECRET is unset [unset]
  KEEPER_NAME             name registered with the registry [service-keeper-1]
  KEEPER_BOND             USDC held as stake beyond min_stake [0]
  STRICT_SECRETS          refuse to start when .env or the secret file is readable by others [false]
  DRY_RUN                 shadow mode: scan, plan and simulate, send nothing (no stake needed) [false]
the deployment
  DEPLOYMENTS_FILE        npm run deploy's file: vault, registry, USDC, RPC, passphrase [unset]
  REGISTRY_CONTRACT       keeper registry contract, C... [required, or from DEPLOYMENTS_FILE]
  VAULT_CONTRACT          vault contract, C... [required, or from DEPLOYMENTS_FILE]
  USDC_CONTRACT           USDC contract, for stale-draw recovery [empty, or from DEPLOYMENTS_FILE]
  CONTRACT_RPC            Stellar RPC URL [https://soroban-testnet.stellar.org]
  NETWORK_PASSPHRASE      [Test SDF Network ; September 2015]
what it liquidates
  LENDING_POOLS           Blend v2 pools, comma-separated, one vault for all; empty = monitor only [empty]
  LENDING_POOL            one Blend v2 pool (LENDING_POOLS with one entry) [empty]
  EXECUTOR_CONTRACT       the keeper's executor (atomic path); empty = two-step [empty]
  HISTORY_API_URL         an RPC with longer event history, for borrower discovery [empty]
  WATCH_ADDRESSES         borrowers always scanned, G.../C... [empty]
  BORROWER_HINTS_FILE     a file of known borrowers, kept across restarts [empty]
  POLL_INTERVAL           seconds between cycles, 3 to 300 [10]
  FULL_SCAN_MINUTES       minutes between full reads of every borrower, 0 to 1440 [10]
  MIN_PROFIT              lot value / bid cost to fill [1.02]
  PROFIT_BASIS            oracle or executable [oracle]
  PRIMARY_DEX_ROUTER      DEX router for the sales [empty]
  FALLBACK_DEX_ROUTER     second router, on the primary's failures [empty]
  SLIPPAGE_BPS            swap slippage tolerance, 0 to 10000 [100]
  COMET_POOLS             Comet pools the executor may also sell into [empty]
  REBALANCE_VAULT         rebalancing target [empty]
  REBALANCE_DRIFT_BPS     drift that triggers a rebalance, 0 to 10000 [500]
  KNOWN_DEPOSITORS        addresses whose vault balances the API shows [empty]
transactions
  CHANNEL_ACCOUNTS        channel accounts sending in parallel, 0 to 16 [4]
  LEDGER_POLL_MS          ledger clock poll, 50 to 10000 ms [250]
  RPC_INSTRUCTION_LEEWAY  CPU instructions added to every estimate [0]
  INCLUSION_FEE           least inclusion fee bid, stroops [100]
  FEE_STRATEGY            fixed, feestats:pNN or feestats:max, profit:BPS [fixed]
  MAX_FEE                 most any bid is, stroops [10000000 (1 XLM)]
  FEE_BUMP_LEDGERS        fee-bump a transaction not included after this many ledgers, 0 to 3 [2]
the HTTP API
  API_PORT                port, 0 = any free one [8080]
  API_HOST                bind address [127.0.0.1]
  API_CORS_ORIGINS        browser origins allowed to read the API [empty: none]
  API_TOKEN               bearer token unlocking the planned executions [empty: never served]
  API_SSE_PER_ADDRESS     /api/events streams per remote address, 1 to 100 [10]
  READY_FAILED_CYCLES     failed cycles in a row before /readyz answers 503 [3]
  LOG_LEVEL               fatal, error, warn, info, debug, trace, silent [info]
tests and simulations only
  FAULT_CRASH_AT          drawn, filled or swapped: kill the process right after that step [unset]

A configuration problem prints one line per problem and exits 1.

example:
  DEPLOYMENTS_FILE=deployments/testnet.json KEEPER_SECRET_FILE=keeper.secret npm run keeper`
