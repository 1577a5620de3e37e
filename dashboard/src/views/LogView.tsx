/** The keepers' live event log, newest line last, with each stream's connection status. */
import { For, Show, createEffect, on } from 'solid-js'
import { useConfig } from '../stores/config.js'
import { LOG_CAP, createLogStore, statusText } from '../stores/log.js'

export function LogView() {
  const { config } = useConfig()
  const log = createLogStore(() => config()?.keeperApis ?? [])
  let box: HTMLDivElement | undefined

  // Follow the newest line unless the reader scrolled up.
  createEffect(
    on(
      () => log.lines().length,
      () => {
        if (box === undefined) return
        const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80
        if (nearBottom) box.scrollTop = box.scrollHeight
      },
    ),
  )

  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title">Live log</h2>
      <Show when={log.streams().length > 0} fallback={<p>No keeper API is configured (Settings → keeper API URLs).</p>}>
        <ul aria-label="Event streams">
          <For each={log.streams()}>
            {(s, i) => (
              <li data-testid={`log-status-${i()}`} data-state={s.status.state}>
                {s.keeper}: {statusText(s.status)}
                <Show when={s.heartbeat}>{(h) => <>, last heartbeat {h()}</>}</Show>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <p class="note">
        {log.lines().length} line(s), the last {LOG_CAP} kept.{' '}
        <button type="button" onClick={() => log.clear()}>
          Clear
        </button>
      </p>
      <div class="log" role="log" data-testid="live-log" aria-label="Keeper events, newest last" ref={box}>
        <ol style={{ 'list-style': 'none', margin: 0, padding: 0 }}>
          <For each={log.lines()}>
            {(line) => (
              <li data-testid="log-line" data-kind={line.kind}>
                <time datetime={line.time}>{line.time.slice(11, 19)}</time> {line.keeper} <strong>{line.kind}</strong> {line.summary}
              </li>
            )}
          </For>
        </ol>
      </div>
    </section>
  )
}
