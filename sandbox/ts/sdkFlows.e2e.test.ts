/**
 * The Python and Go SDK flows (sandbox/sdk-flows) against a fresh node each, in instant mode
 * and with ledgers closing on an interval: every RPC method through the official Python
 * (stellar-sdk) and Go (go-stellar-sdk) clients, whose own types parse the answers. A flow
 * exits non-zero on the first difference; its output is the failure message here.
 * `bash scripts/setup.sh sdk-flows` (run first, idempotent) installs both.
 */
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, startSandbox, type Sandbox, type StartSandboxOptions } from './launch.js'

const FLOWS = join(REPO_ROOT, 'target', 'sdk-flows')
const commands = {
  python: [join(FLOWS, 'venv', 'bin', 'python'), join(REPO_ROOT, 'sandbox', 'sdk-flows', 'python', 'flow.py')],
  go: [join(FLOWS, 'go-flow')],
} as const

beforeAll(() => {
  const r = spawnSync('bash', ['scripts/setup.sh', 'sdk-flows'], { cwd: REPO_ROOT, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`bash scripts/setup.sh sdk-flows failed (exit ${r.status}):\n${r.stderr}${r.stdout}`)
}, 600_000)

let sb: Sandbox | undefined
afterEach(async () => {
  await sb?.stop()
  sb = undefined
})

function runFlow(which: keyof typeof commands, rpcUrl: string): Promise<{ code: number | null; output: string }> {
  const [cmd, ...args] = commands[which]
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, [...args, rpcUrl], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 110_000)
    child.once('error', reject)
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

const modes: [string, StartSandboxOptions][] = [
  ['instant', { instant: true }],
  ['ledgers every 0.5 s', { ledgerIntervalSeconds: 0.5 }],
]

it("refuses, in the Go flow's shape check, an unknown field, a missing one and a number sent for a string (go test)", () => {
  const r = spawnSync('go', ['test', '-count=1', '.'], { cwd: join(REPO_ROOT, 'sandbox', 'sdk-flows', 'go'), encoding: 'utf8' })
  expect({ status: r.status, output: r.stdout + r.stderr }).toMatchObject({ status: 0 })
}, 120_000)

describe.each(['python', 'go'] as const)('the %s SDK flow', (which) => {
  it.each(modes)('passes against the node (%s)', async (_mode, opts) => {
    sb = await startSandbox(opts)
    const { code, output } = await runFlow(which, sb.rpcUrl)
    expect({ code, output }).toMatchObject({ code: 0 })
    expect(output).toMatch(/getVersionInfo/)
  }, 120_000)
})
