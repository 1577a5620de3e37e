import type { ExecutorContract } from '../clients/executor.js'
import type { VaultContract } from '../clients/vault.js'
import type { CycleVault } from './types.js'

/**
 * The vault as a keeper whose registered address is its executor contract uses it: reads go to
 * the vault, draws and returns through the executor (the USDC lands with, and comes back from,
 * the operator).
 */
export function executorCycleVault(vault: VaultContract, executor: ExecutorContract): CycleVault {
  return {
    getState: () => vault.getState(),
    getKeeperDraw: (keeper) => vault.getKeeperDraw(keeper),
    balance: (depositor) => vault.balance(depositor),
    getDepositor: (depositor) => vault.getDepositor(depositor),
    returnProceeds: (operator, amount, responseTimeMs) => executor.returnProceeds(operator, amount, responseTimeMs),
    returnProceedsWithFee: (operator, amount, responseTimeMs) => executor.returnProceedsWithFee(operator, amount, responseTimeMs),
    bind: (operator) => executor.vaultClient(operator),
  }
}
