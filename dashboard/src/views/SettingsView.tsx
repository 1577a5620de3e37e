/**
 * Settings: the network, the contracts and the keeper APIs the dashboard reads. The form starts
 * from the merged configuration (config.json, saved settings, URL parameters); Save checks it with
 * parseConfig, stores it in this browser and reloads the configuration; Reset forgets what was
 * saved here.
 */
import { For, Show, createEffect, createSignal } from 'solid-js'
import { clearSaved, savePatch } from '../config/load.js'
import { parseConfig, type ConfigPatch } from '../config/schema.js'
import { useConfig } from '../stores/config.js'

export interface SettingsForm {
  rpcUrl: string
  networkPassphrase: string
  friendbotUrl: string
  vault: string
  registry: string
  usdc: string
  /** One URL per line. */
  keeperApis: string
  /** The keepers' API token (their API_TOKEN); empty = none. */
  keeperToken: string
  faucetUrl: string
}

export function formFromPatch(p: ConfigPatch): SettingsForm {
  return {
    rpcUrl: p.network?.rpcUrl ?? '',
    networkPassphrase: p.network?.networkPassphrase ?? '',
    friendbotUrl: p.network?.friendbotUrl ?? '',
    vault: p.contracts?.vault ?? '',
    registry: p.contracts?.registry ?? '',
    usdc: p.contracts?.usdc ?? '',
    keeperApis: (p.keeperApis ?? []).join('\n'),
    keeperToken: p.keeperToken ?? '',
    faucetUrl: p.faucetUrl ?? '',
  }
}

/** The form as a patch: fields trimmed, empty optional fields left out, keeper URLs one per line. */
export function patchFromForm(f: SettingsForm): ConfigPatch {
  const t = (s: string) => s.trim()
  const network: NonNullable<ConfigPatch['network']> = { rpcUrl: t(f.rpcUrl), networkPassphrase: t(f.networkPassphrase) }
  if (t(f.friendbotUrl) !== '') network.friendbotUrl = t(f.friendbotUrl)
  const patch: ConfigPatch = {
    network,
    contracts: { vault: t(f.vault), registry: t(f.registry), usdc: t(f.usdc) },
    keeperApis: f.keeperApis
      .split('\n')
      .map(t)
      .filter((s) => s !== ''),
  }
  if (t(f.keeperToken) !== '') patch.keeperToken = t(f.keeperToken)
  if (t(f.faucetUrl) !== '') patch.faucetUrl = t(f.faucetUrl)
  return patch
}

const FIELDS: { key: Exclude<keyof SettingsForm, 'keeperApis' | 'keeperToken'>; label: string; placeholder: string }[] = [
  { key: 'rpcUrl', label: 'RPC URL', placeholder: 'http://127.0.0.1:8000/rpc' },
  { key: 'networkPassphrase', label: 'Network passphrase', placeholder: 'Standalone Network ; February 2017' },
  { key: 'friendbotUrl', label: 'Friendbot URL (optional)', placeholder: 'http://127.0.0.1:8000/friendbot' },
  { key: 'vault', label: 'Vault contract', placeholder: 'C…' },
  { key: 'registry', label: 'Registry contract', placeholder: 'C…' },
  { key: 'usdc', label: 'USDC contract', placeholder: 'C…' },
  { key: 'faucetUrl', label: 'Faucet URL (optional, sandbox only)', placeholder: 'http://127.0.0.1:5173/faucet' },
]

export function SettingsView() {
  const store = useConfig()
  const [form, setForm] = createSignal<SettingsForm>(formFromPatch({}))
  const [problems, setProblems] = createSignal<string[]>([])
  const [message, setMessage] = createSignal('')

  createEffect(() => {
    if (store.loaded.state !== 'ready') return
    const loaded = store.loaded()
    if (loaded !== undefined) setForm(formFromPatch(loaded.patch))
  })

  const set = (key: keyof SettingsForm, value: string) => setForm((f) => ({ ...f, [key]: value }))

  const onSave = (e: SubmitEvent) => {
    e.preventDefault()
    const patch = patchFromForm(form())
    const parsed = parseConfig(patch)
    if (!parsed.ok) {
      setProblems(parsed.problems)
      setMessage('')
      return
    }
    setProblems([])
    savePatch(patch)
    store.reload()
    setMessage('Saved in this browser; the dashboard now reads this configuration.')
  }

  const onReset = () => {
    clearSaved()
    setProblems([])
    store.reload()
    setMessage('Saved settings cleared: config.json and the URL parameters apply again.')
  }

  const current = () => (store.loaded.state === 'ready' ? store.loaded()?.problems ?? [] : [])

  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <Show when={current().length > 0 && problems().length === 0}>
        <div class="notice" role="status">
          <p>The current configuration is not usable yet:</p>
          <ul>
            <For each={current()}>{(p) => <li>{p}</li>}</For>
          </ul>
        </div>
      </Show>
      <form onSubmit={onSave} aria-describedby="settings-help">
        <p id="settings-help" class="note">
          Saved settings live in this browser (localStorage) and override config.json; URL parameters override both.
        </p>
        <For each={FIELDS}>
          {(f) => (
            <label>
              {f.label}
              <input type="text" name={f.key} value={form()[f.key]} placeholder={f.placeholder} onInput={(e) => set(f.key, e.currentTarget.value)} spellcheck={false} />
            </label>
          )}
        </For>
        <label>
          Keeper API URLs (one per line)
          <textarea name="keeperApis" rows={4} value={form().keeperApis} placeholder="http://127.0.0.1:8080" onInput={(e) => set('keeperApis', e.currentTarget.value)} spellcheck={false} />
        </label>
        <label>
          Keeper API token (optional: the keepers' API_TOKEN; without it they hide their planned executions)
          <input
            type="password"
            name="keeperToken"
            autocomplete="off"
            value={form().keeperToken}
            onInput={(e) => set('keeperToken', e.currentTarget.value)}
            spellcheck={false}
          />
        </label>
        <Show when={problems().length > 0}>
          <div role="alert" class="error">
            <p>Not saved: fix these first.</p>
            <ul>
              <For each={problems()}>{(p) => <li>{p}</li>}</For>
            </ul>
          </div>
        </Show>
        <div style={{ display: 'flex', gap: '0.5rem' }}>
          <button type="submit">Save</button>
          <button type="button" onClick={onReset}>
            Reset
          </button>
        </div>
        <Show when={message() !== ''}>
          <p role="status">{message()}</p>
        </Show>
      </form>
    </section>
  )
}
