/** The shell: navigation between the views, the configuration and the wallet for all of them. */
import { For, Match, Show, Switch, createSignal, onCleanup, type JSX } from 'solid-js'
import { ConfigContext, createConfigStore } from './stores/config.js'
import { WalletBar } from './views/WalletBar.js'
import { VaultView } from './views/VaultView.js'
import { PositionView } from './views/PositionView.js'
import { KeepersView } from './views/KeepersView.js'
import { AuctionsView } from './views/AuctionsView.js'
import { LogView } from './views/LogView.js'
import { ResearchView } from './views/ResearchView.js'
import { SettingsView } from './views/SettingsView.js'

const VIEWS: { id: string; title: string; view: () => JSX.Element }[] = [
  { id: 'vault', title: 'Vault', view: VaultView },
  { id: 'position', title: 'My position', view: PositionView },
  { id: 'keepers', title: 'Keepers', view: KeepersView },
  { id: 'auctions', title: 'Positions & auctions', view: AuctionsView },
  { id: 'log', title: 'Live log', view: LogView },
  { id: 'research', title: 'Research', view: ResearchView },
  { id: 'settings', title: 'Settings', view: SettingsView },
]

const current = () => location.hash.replace(/^#\/?/, '') || 'vault'

/** The skip link moves focus to the main region without touching the hash (the hash is the route). */
function skipToContent(e: MouseEvent): void {
  e.preventDefault()
  document.getElementById('content')?.focus()
}

export function App() {
  const store = createConfigStore()
  const [route, setRoute] = createSignal(current())
  const onHash = () => setRoute(current())
  window.addEventListener('hashchange', onHash)
  onCleanup(() => window.removeEventListener('hashchange', onHash))

  return (
    <ConfigContext.Provider value={store}>
      <a class="skip-link" href="#content" onClick={skipToContent}>
        Skip to content
      </a>
      <header class="top">
        <h1>Pooled liquidations</h1>
        <WalletBar />
        <nav aria-label="Views">
          <For each={VIEWS}>
            {(v) => (
              <a href={`#/${v.id}`} aria-current={route() === v.id ? 'page' : undefined}>
                {v.title}
              </a>
            )}
          </For>
        </nav>
      </header>
      <main id="content" tabindex="-1">
        <Show when={store.loaded.state === 'ready' && store.config() === undefined && route() !== 'settings' && route() !== 'research'}>
          <p role="alert" class="notice">
            The dashboard is not configured yet: <a href="#/settings">open Settings</a> ({store.loaded()?.problems[0]}).
          </p>
        </Show>
        <Switch fallback={<p>Unknown view “{route()}”.</p>}>
          <For each={VIEWS}>{(v) => <Match when={route() === v.id}>{v.view()}</Match>}</For>
        </Switch>
      </main>
    </ConfigContext.Provider>
  )
}
