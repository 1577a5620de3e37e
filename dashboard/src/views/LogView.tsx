/**
 * The keepers' event log, newest line last, with each stream's connection status. It opens with
 * the keepers' recent events (what happened before the page was opened), then follows them live.
 * Routine scan lines ("blend: 0 task(s)") are hidden until asked for, so fills, draws and the
 * keepers' starts and errors are what a reader sees first. Times are on the ledger clock, like
 * every other view's: each line's keeper time is moved onto it when the line arrives, and the
 * ledger is shown when the event names one.
 */
import { For, Show, createEffect, createMemo, createSignal, on } from 'solid-js'
import { useConfig } from '../stores/config.js'
import { createLedgerClock, type LedgerTime } from '../stores/ledgerClock.js'
import { LOG_CAP, createLogStore, isRoutine, statusText, type LogLine } from '../stores/log.js'
import { formatLedgerTime, keeperTimeText } from '../logic/time.js'

export function LogView() {
  const { config, reads } = useConfig()
  const log = createLogStore(() => config()?.keeperApis ?? [])
  const ledger = createLedgerClock(reads)
  const [showRoutine, setShowRoutine] = createSignal(false)
  const shown = createMemo(() => (showRoutine() ? log.lines() : log.lines().filter((l) => !isRoutine(l))))
  const hidden = () => log.lines().length - shown().length
  let box: HTMLDivElement | undefined

  // Follow the newest line unless the reader scrolled up.
  createEffect(
    on(
      () => shown().length,
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
                <Show when={s.heartbeat}>{(h) => <>, last heartbeat {keeperTimeText(h(), ledger.latest)}</>}</Show>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <p class="note" data-testid="log-clock">
        Times are the network's ledger close times (UTC), now{' '}
        {ledger.latest === undefined ? '— (not read yet)' : formatLedgerTime(ledger.latest.closeTime, ledger.latest.sequence)}. A keeper's
        event time is moved onto that clock as the line arrives (to within a few seconds), with the ledger when the event names one;
        “keeper clock” marks a time from before the ledger clock was read.
      </p>
      <p class="note" data-testid="log-count">
        {log.lines().length} line(s), starting with each keeper's recent history; the last {LOG_CAP} kept
        <Show when={!showRoutine()}>; {hidden()} routine scan line(s) hidden</Show>.{' '}
        <button type="button" data-testid="log-routine" aria-pressed={showRoutine()} onClick={() => setShowRoutine(!showRoutine())}>
          {showRoutine() ? 'Hide routine scans' : 'Show routine scans'}
        </button>{' '}
        <button type="button" onClick={() => log.clear()}>
          Clear
        </button>
      </p>
      <div class="log" role="log" tabindex="0" data-testid="live-log" aria-label="Keeper events, newest last" ref={box}>
        <ol style={{ 'list-style': 'none', margin: 0, padding: 0 }}>
          <Show when={log.lines().length > 0 && shown().length === 0}>
            <li data-testid="log-quiet">Only routine scans so far: no fill, draw or error among the {log.lines().length} line(s).</li>
          </Show>
          <For each={shown()}>
            {(line) => (
              <li data-testid="log-line" data-kind={line.kind}>
                <LineTime line={line} anchor={() => ledger.latest} /> {line.keeper} <strong>{line.kind}</strong> {line.summary}
              </li>
            )}
          </For>
        </ol>
      </div>
    </section>
  )
}

/** A line's time, fixed on the ledger clock as it was when the line arrived (a later clock jump does not move it). */
function LineTime(props: { line: LogLine; anchor: () => LedgerTime | undefined }) {
  const text = createMemo<{ text: string; fixed: boolean }>((prev) => {
    if (prev?.fixed) return prev
    const anchor = props.anchor()
    return { text: keeperTimeText(props.line.time, anchor, props.line.ledger), fixed: anchor !== undefined }
  })
  return <time datetime={props.line.time}>{text().text}</time>
}
