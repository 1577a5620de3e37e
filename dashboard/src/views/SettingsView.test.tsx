import { cleanup, fireEvent, render, screen, waitFor } from '@solidjs/testing-library'
import { createResource } from 'solid-js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoadedConfig } from '../config/load.js'
import type { ConfigPatch } from '../config/schema.js'
import { ConfigContext, type ConfigStore } from '../stores/config.js'
import { SettingsView, formFromPatch, patchFromForm } from './SettingsView.js'

afterEach(() => {
  cleanup()
  localStorage.clear()
})

const VAULT = `C${'A'.repeat(55)}`
const REGISTRY = `C${'B'.repeat(55)}`
const USDC = `C${'C'.repeat(55)}`

const patch: ConfigPatch = {
  network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'Standalone Network ; February 2017', friendbotUrl: 'http://127.0.0.1:8000/friendbot' },
  contracts: { vault: VAULT, registry: REGISTRY, usdc: USDC },
  keeperApis: ['http://127.0.0.1:8080', 'http://127.0.0.1:8081'],
}

describe('the settings form', () => {
  it('keeps the keeper API token, trimmed, and leaves an empty one out', () => {
    const form = formFromPatch({ ...patch, keeperToken: 'tok-0123456789abcdef' })
    expect(form.keeperToken).toBe('tok-0123456789abcdef')
    expect(patchFromForm({ ...form, keeperToken: '  tok-0123456789abcdef ' }).keeperToken).toBe('tok-0123456789abcdef')
    expect(patchFromForm({ ...form, keeperToken: ' ' })).not.toHaveProperty('keeperToken')
  })

  it('round-trips a patch, one keeper URL per line, and leaves empty optional fields out', () => {
    const form = formFromPatch(patch)
    expect(form.keeperApis).toBe('http://127.0.0.1:8080\nhttp://127.0.0.1:8081')
    expect(form.faucetUrl).toBe('')
    expect(patchFromForm(form)).toEqual(patch)
    expect(patchFromForm({ ...form, keeperApis: ' http://a:1 \n\n http://b:2\n', friendbotUrl: '  ' })).toEqual({
      ...patch,
      network: { rpcUrl: patch.network!.rpcUrl, networkPassphrase: patch.network!.networkPassphrase },
      keeperApis: ['http://a:1', 'http://b:2'],
    })
  })
})

function renderWith(loaded: LoadedConfig, reload: () => void) {
  render(() => {
    const [resource] = createResource(async () => loaded)
    const store: ConfigStore = { loaded: resource, reload, config: () => loaded.config, reads: () => undefined }
    return (
      <ConfigContext.Provider value={store}>
        <SettingsView />
      </ConfigContext.Provider>
    )
  })
}

describe('SettingsView', () => {
  it('prefills from the loaded configuration, refuses a bad one in words, saves a good one and reloads', async () => {
    const reload = vi.fn()
    renderWith({ config: undefined, problems: ['contracts.vault: a contract address (C…, 56 characters)'], patch: { ...patch, contracts: { ...patch.contracts, vault: 'nope' } } }, reload)
    const vault = screen.getByLabelText('Vault contract') as HTMLInputElement
    await waitFor(() => expect(vault.value).toBe('nope'))
    expect((screen.getByLabelText('Keeper API URLs (one per line)') as HTMLTextAreaElement).value).toBe('http://127.0.0.1:8080\nhttp://127.0.0.1:8081')
    expect(screen.getByRole('status').textContent).toContain('contracts.vault: a contract address')

    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.getByRole('alert').textContent).toContain('contracts.vault: a contract address')
    expect(localStorage.length).toBe(0)
    expect(reload).not.toHaveBeenCalled()

    fireEvent.input(vault, { target: { value: VAULT } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.queryByRole('alert')).toBeNull()
    expect(JSON.parse(localStorage.getItem('pooled-liquidations.config')!)).toEqual(patch)
    expect(reload).toHaveBeenCalledTimes(1)

    fireEvent.click(screen.getByRole('button', { name: 'Reset' }))
    expect(localStorage.getItem('pooled-liquidations.config')).toBeNull()
    expect(reload).toHaveBeenCalledTimes(2)
  })
})
