import type { Keypair, xdr } from '@stellar/stellar-sdk'
import type { Chain } from '../chain/index.js'
import type { Mint, WorldAsset } from './assets.js'
import type { BlendProtocol, ReserveConfig } from './blend.js'
import type { RegistryConfig, VaultConfig } from './service.js'

/** The network a world is deployed on (a started sandbox satisfies it). */
export interface WorldNetwork {
  rpcUrl: string
  networkPassphrase: string
  friendbotUrl: string
}

export interface CollateralSpec {
  /** Classic asset code (1-12 alphanumerics). */
  code: string
  /** Initial oracle price, 7 decimals (USD). */
  price: bigint
  /** Blend collateral factor, 7 decimals (default 0.75). */
  cFactor?: number
  /** USD value held by each of the primary router's pools on this asset's side (default 1M). */
  dexDepthUsd?: bigint
  /**
   * USD value on each side of a Comet weighted pool of this asset against USDC (weights 50/50,
   * 0.3 % fee), a venue of the registry (default: no Comet pool; 0 is none too).
   */
  cometDepthUsd?: bigint
  /**
   * An intermediate-asset route: a pair of this asset against another collateral (`asset`: its
   * code) on the primary router, `depthUsd` a side at both oracle prices, so that the path
   * [this, other, USDC] exists on the primary router (default: none).
   */
  via?: { asset: string; depthUsd: bigint }
}

export interface DeployWorldOptions {
  /** Every keypair, salt and amount derives from it (default 1). */
  seed?: number | bigint
  /** Collateral assets (default WETH at 2,000 and WBTC at 60,000). At least two. */
  collaterals?: readonly CollateralSpec[]
  /** Borrowers opened near their limit (default 4; collateral assets alternate). */
  borrowers?: number
  /**
   * Blend pools to open (default 1; 1..4), all from the same protocol, oracle and reserves (USDC
   * and every collateral), each with its own backstop deposit and the lender's `lenderSupply`.
   * Borrower i opens its position in pool `i % pools`.
   */
  pools?: number
  /** Borrowers' target health factors are drawn from [min, max], 7 decimals (default 1.04-1.10). */
  borrowerHealthFactor?: { min: bigint; max: bigint }
  /** Keeper operator accounts, funded with USDC and trustlines (default 3). */
  keepers?: number
  /** Depositors into the service vault (default 3, 100k USDC each). */
  depositors?: number
  depositAmount?: bigint
  /** Deploy the service vault and registry (default true). */
  service?: boolean
  /**
   * Register every keeper in the registry (default true; needs `service`). Each registers as a
   * plain account (two-step draws) and adds the bond that makes its draw_limit cover
   * `vaultConfig.maxDrawPerKeeper` (`bondForDraw`).
   */
  registerKeepers?: boolean
  /**
   * USDC a keeper account has to spare (default 10k). A keeper the world registers gets its
   * bond on top (it pays min_stake out of this amount, as before, and the bond out of the extra).
   */
  keeperUsdc?: bigint
  /** USDC the lender supplies to each Blend pool (default 2M). */
  lenderSupply?: bigint
  /** Share of borrowers per collateral asset, in `collaterals` order (default: equal). */
  collateralWeights?: readonly number[]
  /**
   * The service vault's configuration (default: cap 100M USDC, no cooldown, max draw 1M, keeper
   * fee 1000 bps, profit unlocking over 3,600 s).
   */
  vaultConfig?: Partial<VaultConfig>
  /** The registry's configuration (default: stake 1,000 USDC, slash after 3,600 s, 10 %). */
  registryConfig?: Partial<RegistryConfig>
  /**
   * One transaction at a time (default false: independent set-up steps run in parallel). On a
   * seeded node that closes a ledger per transaction, the same seed then gives the same ledgers.
   */
  serial?: boolean
  /** Write the addresses file here (JSON) when set. */
  addressesFile?: string
  /** Progress lines (default: silent). */
  log?: (line: string) => void
  /**
   * Seconds its transactions stay valid (default 30, from the wall clock). 0 gives them no
   * upper time bound: the envelopes, and so the node's simulation nonces, are then the same on
   * every run of a seed (the simulation's set-up).
   */
  txTimeoutSeconds?: number
  /**
   * When set, the oracle also prices XLM (the native asset's contract, after the collaterals) at
   * this price (USD, 7 decimals): what a keeper's FEE_STRATEGY profit:BPS converts at when the
   * pool has no XLM reserve.
   */
  oracleXlmPrice?: bigint
}

/** One borrower's opening position in the Blend pool. */
export interface Borrower {
  keypair: Keypair
  address: string
  collateralAsset: WorldAsset
  /** Collateral supplied (asset units, 7 decimals). */
  collateral: bigint
  /** USDC borrowed (7 decimals). */
  borrowed: bigint
  /** The health factor the position was opened at (7 decimals), before interest. */
  targetHealthFactor: bigint
  /** The lending pool the position is in. */
  pool: string
}

export interface DexPairInfo {
  router: string
  tokenA: string
  tokenB: string
  pair: string
}

/** A Comet weighted pool of a collateral (`asset`, its contract id) against USDC. */
export interface CometPoolInfo {
  asset: string
  pool: string
}

/** Blend pool positions keyed by reserve index. */
export interface BlendPositions {
  collateral: Map<number, bigint>
  liabilities: Map<number, bigint>
  supply: Map<number, bigint>
}

/** Everything `deployWorld` created, as plain strings (the addresses file). */
export interface WorldAddresses {
  version: 1
  seed: string
  network: WorldNetwork
  assets: {
    usdc: AssetEntry
    blnd: AssetEntry
    collateral: AssetEntry[]
  }
  oracle: { contract: string; decimals: number }
  blend: {
    /** The first pool (the only one unless the world was deployed with `pools`). */
    pool: string
    /** Every lending pool, the first one first. */
    pools: string[]
    backstop: string
    poolFactory: string
    emitter: string
    comet: string
    poolWasmHash: string
    /** Reserve list in index order (asset contract ids). */
    reserves: string[]
  }
  /**
   * The routers and their pairs: one USDC pair per collateral on each router, then the primary
   * router's intermediate-asset pairs (`CollateralSpec.via`: tokenA the collateral, tokenB the
   * other collateral); the Comet pools of collaterals with `cometDepthUsd` (empty when none).
   */
  dex: { primaryRouter: string; fallbackRouter: string; pairWasmHash: string; pairs: DexPairInfo[]; comets: CometPoolInfo[] }
  rebalanceVault: { contract: string; rebalancer: string; assets: string[]; weightsBps: number[] }
  service: { vault: string; registry: string } | null
  accounts: {
    admin: string
    issuer: string
    lender: string
    keepers: string[]
    depositors: string[]
    borrowers: string[]
  }
  /** The keeper's configuration variables for this world (KEY=value). */
  env: Record<string, string>
}

export interface AssetEntry {
  code: string
  issuer: string
  contract: string
  decimals: number
  /** Oracle price at deploy time, 7 decimals, as a decimal string. */
  price: string
}

/** A deployed, seeded world with helper actions. */
export interface World {
  seed: bigint
  network: WorldNetwork
  chain: Chain
  admin: Keypair
  issuer: Keypair
  lender: Keypair
  keepers: Keypair[]
  depositors: Keypair[]
  borrowers: Borrower[]
  usdc: WorldAsset
  blnd: WorldAsset
  collaterals: WorldAsset[]
  oracle: string
  /** `pool` is the first of `pools` (every lending pool; they share the reserve list). */
  blend: BlendProtocol & { pool: string; pools: string[]; reserves: string[]; reserveConfigs: ReserveConfig[] }
  dex: WorldAddresses['dex']
  rebalanceVault: string
  service: { vault: string; registry: string } | undefined
  addresses: WorldAddresses

  /** Asset by contract id or code. */
  asset(assetOrCode: string): WorldAsset
  /** The oracle price the world last set (7 decimals). */
  price(assetOrCode: string): bigint
  /** Sets an asset's oracle price (7 decimals) on chain. */
  setPrice(assetOrCode: string, price: bigint): Promise<void>
  /** Mints an asset to an account (needs a trustline) or a contract. */
  mint(assetOrCode: string, to: string, amount: bigint): Promise<void>
  /** Many mints at once (batched classic payments on a world we deployed). */
  mintMany(mints: readonly Mint[]): Promise<void>
  /** Creates these accounts with XLM for fees (one at a time). */
  fundAccounts(accounts: readonly Keypair[]): Promise<void>
  /** Where a world found on a snapshot or a fork came from; absent for a world we deployed. */
  source?: WorldSource
  /**
   * How prices are posted when the oracle is not the world's own mock: the method and its
   * arguments for prices by asset contract (oracle decimals) at a timestamp (unix seconds).
   */
  oracleFeed?: { method: string; decimals: number; args(prices: ReadonlyMap<string, bigint>, timestamp: bigint): xdr.ScVal[] }
  /** Token balance of an account or contract. */
  balance(assetOrCode: string, holder: string): Promise<bigint>
  /** `pool.get_positions(user)`; `pool` defaults to the borrower's own pool when `user` is one, else the first. */
  positions(user: string, pool?: string): Promise<BlendPositions>
  /** Pauses / resumes a router (`'primary'`, `'fallback'` or a router id). */
  setRouterPaused(router: string, paused: boolean): Promise<void>
  /** Writes the addresses file (JSON). */
  writeAddresses(path: string): Promise<void>
}

/** The state a found world starts from (sim/ reports name it). */
export interface WorldSource {
  kind: 'snapshot' | 'fork'
  /** The snapshot file (absolute path) and its SHA-256 (hex). */
  file?: string
  sha256?: string
  /** The fork's upstream RPC (credentials in the URL masked). */
  url?: string
  /** The ledger the state is from (the snapshot's, or the upstream's latest when forked). */
  ledger: number
  networkPassphrase: string
  pool: string
  oracle: string
  /** The oracle's code before the harness replaced it (hex wasm hash). */
  oracleCode: string | null
  backstop: string
  /** Where the borrowers came from, and how many each source named. */
  borrowerSources: Record<string, number>
}
