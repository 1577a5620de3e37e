/**
 * `npm run demo -- --once` as a user runs it (the wasm is already built by `npm test`): a world,
 * competing keeper daemons, a price drop, a liquidation booked to the vault, and the audit table
 * at the end with every invariant holding. Exit 0 only when all of that happened.
 */
import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../sandbox/ts/launch.js'

describe('npm run demo -- --once', () => {
  it('books a liquidation, prints the audit table with twelve ✓ and exits 0', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--once', '--port', '0', '--api-port', '0', '--keepers', '2'], { cwd: REPO_ROOT })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
      child.on('error', reject)
      child.on('close', (c) => resolve({ code: c, stdout, stderr }))
    })
    expect(code, `${stdout.slice(-3000)}\n${stderr.slice(-3000)}`).toBe(0)
    expect(stdout).toMatch(/\[demo\] liquidation booked [\d.]+ s after the price drop: vault profit \+[1-9]\d*\.\d{7} USDC/)
    expect(stdout).toMatch(/\[demo\] auditing the vault and the registry/)
    const rows = stdout.split('\n').filter((l) => /^│ [✓✗⚠] │/.test(l))
    expect(rows.map((l) => l.slice(2, 3))).toEqual(Array(12).fill('✓'))
    expect(stdout).toMatch(/✓ all 12 invariants hold at ledger \d+\n/)
  }, 600_000)
})
