/**
 * The operator's channel accounts (CHANNEL_ACCOUNTS) as submission lanes. They are created from
 * the operator's XLM when missing. Never fatal: while they are unavailable (an RPC down at start,
 * an operator short of XLM) every transaction goes from the operator, one per ledger, and the
 * set-up is retried in the background with a doubling delay until it succeeds or the keeper
 * stops; the channels then join the running lanes.
 */
import { Asset, Operation, type Keypair } from '@stellar/stellar-sdk'
import type { Logger } from 'pino'
import { SubmissionLanes, channelKeypairs, ensureChannels, submit, type Chain } from '../chain/index.js'
import { InFlight } from './inflight.js'

/** First retry delay after a failed set-up (ms); each later one doubles, up to `CHANNEL_RETRY_MAX_MS`. */
export const CHANNEL_RETRY_FIRST_MS = 5_000
export const CHANNEL_RETRY_MAX_MS = 60_000
/** XLM the operator sends a channel account whose transaction was refused for want of a fee. */
export const CHANNEL_REFILL_XLM = '5'

export interface ChannelLanesOptions {
  chain: Chain
  operator: Keypair
  /** CHANNEL_ACCOUNTS. */
  count: number
  logger: Pick<Logger, 'info' | 'warn' | 'debug'>
  /** Called once when the channels joined the lanes after a failed first set-up. */
  onReady?: (lanes: number) => void
  /** Retry a failed first set-up in the background (default true); false: the operator alone for good. */
  retry?: boolean
  /** Creates the missing channel accounts (default: ensureChannels from the operator). */
  ensure?: (channels: readonly Keypair[]) => Promise<string[]>
  retryFirstMs?: number
  retryMaxMs?: number
}

export interface ChannelLanes {
  /** The lanes to hand the adapters: the operator alone until the channels are ready. */
  lanes: SubmissionLanes
  /**
   * Resolves when the channels are lanes (at once without channels); never rejects, and stays
   * pending when `stop` came first.
   */
  ready: Promise<void>
  /** Cancels a pending retry; a set-up still in flight then adds nothing. */
  stop(): void
  /** Resolves once no set-up is in flight. */
  idle(): Promise<void>
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/**
 * Sets up the channel accounts once, waiting for that first attempt; a failure starts the
 * background retries. The set-up submits from the operator account, which the chain client
 * queues behind any other submission from that account, so a retry never races the keeper's own
 * transactions for a sequence number.
 */
export async function startChannelLanes(o: ChannelLanesOptions): Promise<ChannelLanes> {
  const lanes = new SubmissionLanes(o.operator)
  // A channel pays the fees of what it sends: one that ran dry is topped up from the operator.
  lanes.refillWith(async (lane) => {
    const destination = lane.source.publicKey()
    try {
      await submit(o.chain, o.operator, [Operation.payment({ destination, asset: Asset.native(), amount: CHANNEL_REFILL_XLM })])
      o.logger.info({ channel: destination, xlm: CHANNEL_REFILL_XLM }, 'channel account out of XLM: topped up from the operator')
    } catch (err) {
      o.logger.warn({ channel: destination, err: errText(err) }, 'channel account out of XLM and the operator could not top it up')
    }
  })
  const channels = channelKeypairs(o.operator, o.count)
  if (channels.length === 0) return { lanes, ready: Promise.resolve(), stop: () => {}, idle: async () => {} }
  const ensure = o.ensure ?? ((c: readonly Keypair[]) => ensureChannels(o.chain, o.operator, c))
  const firstMs = o.retryFirstMs ?? CHANNEL_RETRY_FIRST_MS
  const maxMs = o.retryMaxMs ?? CHANNEL_RETRY_MAX_MS

  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let attempts = 0
  let settle: () => void = () => {}
  const setups = new InFlight()
  const ready = new Promise<void>((r) => (settle = r))

  /** One set-up; true when the channels are lanes. `retryInMs`: the delay before the next one. */
  const attempt = (retryInMs: number): Promise<boolean> => setups.track(tryOnce(retryInMs))
  const tryOnce = async (retryInMs: number): Promise<boolean> => {
    attempts++
    try {
      const created = await ensure(channels)
      if (stopped) return false
      lanes.add(channels)
      o.logger.info({ channels: channels.length, created: created.length, lanes: lanes.size, attempt: attempts }, 'channel accounts ready')
      if (attempts > 1) o.onReady?.(lanes.size)
      settle()
      return true
    } catch (err) {
      if (attempts === 1) {
        o.logger.warn({ err: errText(err), retryInMs: o.retry === false ? null : retryInMs }, 'channel accounts unavailable: sending everything from the operator')
      } else {
        o.logger.debug({ err: errText(err), attempt: attempts, retryInMs }, 'channel accounts still unavailable')
      }
      return false
    }
  }

  const retry = (delayMs: number): void => {
    if (stopped) return
    const next = Math.min(delayMs * 2, maxMs)
    timer = setTimeout(() => {
      timer = undefined
      void attempt(next).then((done) => {
        if (!done) retry(next)
      })
    }, delayMs)
    timer.unref?.()
  }

  if (!(await attempt(firstMs)) && o.retry !== false) retry(firstMs)
  return {
    lanes,
    ready,
    stop: () => {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
    },
    idle: () => setups.idle(),
  }
}
