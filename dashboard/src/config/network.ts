/**
 * Which network a configuration points at, without the config parser (zod): the shell and the
 * wallet bar ask before the parser has loaded.
 */
/** The sandbox's network passphrase: the sandbox wallet is offered only on this network. */
export const SANDBOX_PASSPHRASE = 'Standalone Network ; February 2017'

/** Whether `config` points at the local sandbox network (the sandbox wallet is offered there only). */
export function isSandbox(config: { network: { networkPassphrase: string; friendbotUrl?: string | undefined } }): boolean {
  return config.network.networkPassphrase === SANDBOX_PASSPHRASE && config.network.friendbotUrl !== undefined
}
