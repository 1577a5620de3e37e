/**
 * Sweep progress on stderr: a cli-progress bar with the job count, failures and ETA when the
 * stream is a terminal, otherwise one plain line per finished job (CI logs, `kubectl logs`),
 * where a redrawn bar would be noise.
 */
import cliProgress from 'cli-progress'

export type ProgressMode = 'auto' | 'bar' | 'lines' | 'none'

export interface JobProgress {
  key: string
  ok: boolean
  seconds: number
  /** The error message of a failed job. */
  message?: string
}

export interface Progress {
  /** A job finished (or failed). */
  done(p: JobProgress): void
  /** Ends the bar; call once, after the last job. */
  stop(): void
}

export function createProgress(total: number, mode: ProgressMode = 'auto', stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr): Progress {
  const resolved = mode === 'auto' ? (stream.isTTY === true ? 'bar' : 'lines') : mode
  if (resolved === 'none' || total === 0) return { done: () => {}, stop: () => {} }
  if (resolved === 'lines') return lineProgress(total, stream)
  return barProgress(total, stream)
}

function barProgress(total: number, stream: NodeJS.WritableStream): Progress {
  const bar = new cliProgress.SingleBar(
    {
      format: 'runs {bar} {value}/{total} | {failed} failed | {percentage}% | elapsed {duration_formatted} | ETA {eta_formatted}',
      stream,
      hideCursor: true,
      etaBuffer: 50,
      noTTYOutput: false,
    },
    cliProgress.Presets.shades_classic,
  )
  let failed = 0
  bar.start(total, 0, { failed })
  return {
    done(p) {
      if (!p.ok) failed++
      bar.increment(1, { failed })
    },
    stop() {
      bar.stop()
    },
  }
}

function lineProgress(total: number, stream: NodeJS.WritableStream): Progress {
  const width = String(total).length
  const t0 = Date.now()
  let n = 0
  return {
    done(p) {
      n++
      const elapsed = (Date.now() - t0) / 1000
      const eta = n < total ? `, ETA ${formatSeconds((elapsed / n) * (total - n))}` : ''
      const what = p.ok ? 'ok' : `FAILED: ${(p.message ?? '').split('\n')[0]}`
      stream.write(`[${String(n).padStart(width)}/${total}] ${p.key} ${what} (${p.seconds.toFixed(1)} s${eta})\n`)
    },
    stop() {},
  }
}

/** 75 → "1m15s", 3700 → "1h01m". */
export function formatSeconds(s: number): string {
  const t = Math.round(s)
  if (t < 60) return `${t}s`
  if (t < 3600) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`
  return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`
}
