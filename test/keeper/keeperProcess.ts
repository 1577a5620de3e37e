import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { REPO_ROOT } from './vaultWorld.js'

export interface LogLine {
  level?: number
  msg?: string
  [k: string]: unknown
}

export interface KeeperProcess {
  proc: ChildProcess
  lines: LogLine[]
  stderr: () => string
  /** Resolves with the first log line matching `pred` (already seen or future). */
  waitForLog(pred: (l: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>
  /** Resolves with the exit code (or the signal name) once the process ended. */
  exited: Promise<number | string>
  port(): Promise<number>
  kill(signal: NodeJS.Signals): void
}

/**
 * Starts the keeper as a real child process: from source through tsx, or the built single
 * executable when `executable` is given. Runs in an empty temporary directory (no stray .env)
 * with exactly `env` plus PATH.
 */
export function spawnKeeper(env: Record<string, string>, opts: { executable?: string; cwd?: string } = {}): KeeperProcess {
  const cwd = opts.cwd ?? mkdtempSync(join(tmpdir(), 'keeper-run-'))
  const [cmd, args] = opts.executable
    ? [opts.executable, []]
    : [
        process.execPath,
        [
          '--import',
          pathToFileURL(join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href,
          join(REPO_ROOT, 'src', 'keeper', 'server.ts'),
        ],
      ]
  const proc = spawn(cmd, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const lines: LogLine[] = []
  const waiters: Array<{ pred: (l: LogLine) => boolean; resolve: (l: LogLine) => void }> = []
  let buf = ''
  let err = ''
  proc.stdout!.setEncoding('utf8')
  proc.stdout!.on('data', (chunk: string) => {
    buf += chunk
    let i: number
    while ((i = buf.indexOf('\n')) >= 0) {
      const raw = buf.slice(0, i)
      buf = buf.slice(i + 1)
      let line: LogLine
      try {
        line = JSON.parse(raw) as LogLine
      } catch {
        line = { msg: raw, nonJson: true }
      }
      lines.push(line)
      for (const w of [...waiters]) {
        if (w.pred(line)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(line)
        }
      }
    }
  })
  proc.stderr!.setEncoding('utf8')
  proc.stderr!.on('data', (c: string) => {
    err += c
  })
  const exited = new Promise<number | string>((resolve) => {
    proc.on('exit', (code, signal) => resolve(code ?? signal ?? -1))
  })
  const waitForLog = (pred: (l: LogLine) => boolean, timeoutMs = 60_000) => {
    const seen = lines.find(pred)
    if (seen) return Promise.resolve(seen)
    return new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no matching keeper log line within ${timeoutMs} ms; stderr: ${err.slice(-2000)}; last lines: ${JSON.stringify(lines.slice(-5))}`))
      }, timeoutMs)
      waiters.push({
        pred,
        resolve: (l) => {
          clearTimeout(timer)
          resolve(l)
        },
      })
    })
  }
  return {
    proc,
    lines,
    stderr: () => err,
    waitForLog,
    exited,
    port: async () => Number((await waitForLog((l) => l.msg === 'api listening')).port),
    kill: (signal) => {
      proc.kill(signal)
    },
  }
}
