/**
 * A second sandbox node that continues another node's chain: the source's ledger state is dumped
 * without its history (`sandbox_dumpState {history: false}`) and a new node starts from that
 * file (`--state`). The new node holds every ledger entry and the source's latest ledger header,
 * so its next ledger follows the source's last one, but none of the source's history
 * (transactions, events): a node that lost its history, or whose retention window is shorter.
 * The source keeps its history (an archive of the chain up to the fork ledger).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox, type Sandbox, type StartSandboxOptions } from '../../sandbox/ts/launch.js'

export interface Fork {
  node: Sandbox
  /** The source's latest ledger when its state was dumped: the new node's first ledger. */
  forkLedger: number
  /** Hash of that ledger on both nodes. */
  forkHash: string
  stateFile: string
}

/** Starts a node from `source`'s current state; `opts` as for startSandbox (its `state` is set here). */
export async function forkSandbox(source: Sandbox, opts: Omit<StartSandboxOptions, 'state'> = {}): Promise<Fork> {
  const stateFile = join(mkdtempSync(join(tmpdir(), 'sandbox-fork-')), 'state.json')
  await source.call('sandbox_dumpState', { path: stateFile, history: false })
  const at = await source.server.getLatestLedger()
  const node = await startSandbox({ ...opts, networkPassphrase: opts.networkPassphrase ?? source.networkPassphrase, state: stateFile })
  const first = await node.server.getLatestLedger()
  if (first.sequence !== at.sequence || first.id !== at.id) {
    await node.stop()
    throw new Error(`the forked node starts at ledger ${first.sequence} (${first.id}), the source was at ${at.sequence} (${at.id})`)
  }
  return { node, forkLedger: at.sequence, forkHash: at.id, stateFile }
}
