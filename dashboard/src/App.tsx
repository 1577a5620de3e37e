/**
 * The shell: navigation between the views, the configuration and the wallet for all of them.
 * The Vault view, the first one, is part of the shell's chunk so it paints with it; every other
 * view is its own chunk, fetched when its route is first opened.
 */
import { For, Match, Show, Switch, createSignal, lazy, onCleanup, type JSX } from 'solid-js'
import { ConfigContext, createConfigStore } from './stores/config.js'
import { ViewsNav, type ViewLink } from './components/ViewsNav.js'
import { WalletBar } from './views/WalletBar.js'
import { VaultView } from './views/VaultView.js'

const PositionView = lazy(() => import('./views/PositionView.js').then((m) => ({ default: m.PositionView })))
const KeepersView = lazy(() => import('./views/KeepersView.js').then((m) => ({ default: m.KeepersView })))
const AuctionsView = lazy(() => import('./views/AuctionsView.js').then((m) => ({ default: m.AuctionsView })))
const LogView = lazy(() => import('./views/LogView.js').then((m) => ({ default: m.LogView })))
const ResearchView = lazy(() => import('./views/ResearchView.js').then((m) => ({ default: m.ResearchView })))
const SettingsView = lazy(() => import('./views/SettingsView.js').then((m) => ({ default: m.SettingsView })))
const TxView = lazy(() => import('./views/TxView.js').then((m) => ({ default: m.TxView })))

const VIEWS: (ViewLink & { view: () => JSX.Element })[] = [
  { id: 'vault', title: 'Vault', short: 'Vault', view: VaultView },
  { id: 'position', title: 'My position', short: 'Position', view: PositionView },
  { id: 'keepers', title: 'Keepers', short: 'Keepers', view: KeepersView },
  { id: 'auctions', title: 'Positions & auctions', short: 'Auctions', view: AuctionsView },
  { id: 'log', title: 'Live log', short: 'Log', view: LogView },
  { id: 'research', title: 'Research', short: 'Research', view: ResearchView },
  { id: 'settings', title: 'Settings', short: 'Settings', view: SettingsView },
]

const current = () => location.hash.replace(/^#\/?/, '').split('?')[0] || 'vault'

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
        <ViewsNav views={VIEWS} current={route} />
      </header>
      <main id="content" tabindex="-1">
        <Show when={store.loaded.state === 'ready' && store.config() === undefined && route() !== 'settings' && route() !== 'research'}>
          <p role="alert" class="notice">
            The dashboard is not configured yet: <a href="#/settings">open Settings</a> ({store.loaded()?.problems[0]}).
          </p>
        </Show>
        {/* No <Suspense> here: it would also wait for every resource the views read (the chain's
            figures) before showing anything; a lazy view appears as soon as its chunk is in. */}
        <Switch fallback={<p>Unknown view “{route()}”.</p>}>
          <For each={VIEWS}>{(v) => <Match when={route() === v.id}>{v.view()}</Match>}</For>
          <Match when={route().startsWith('tx/')}>
            <TxView hash={route().slice(3)} />
          </Match>
        </Switch>
      </main>
    </ConfigContext.Provider>
  )
}
