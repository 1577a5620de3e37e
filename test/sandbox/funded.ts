/** `n` new accounts funded by the sandbox's friendbot, one after another (strict queue rules). */
import { Keypair } from '@stellar/stellar-sdk'
import type { Sandbox } from '../../sandbox/ts/launch.js'

export async function funded(sb: Sandbox, n: number): Promise<Keypair[]> {
  const out: Keypair[] = []
  for (let i = 0; i < n; i++) {
    const kp = Keypair.random()
    await sb.server.requestAirdrop(kp.publicKey())
    out.push(kp)
  }
  return out
}
