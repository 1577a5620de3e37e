/** Runs a command to its end with its output captured (test helpers that drive CLIs and daemons). */
import { spawn } from 'node:child_process'

export interface Run {
  code: number
  stdout: string
  stderr: string
  ms: number
}

/** `cmd args`, stdout and stderr kept, killed (SIGKILL) after `timeoutMs`; never rejects on a non-zero exit. */
export function runCaptured(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<Run> {
  const start = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = opts.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr, ms: Date.now() - start })
    })
  })
}
