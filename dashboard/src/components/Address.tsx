/**
 * A Stellar address for people: its short form (`GDFYZR…3WCX`) with the full address in the
 * title and the group's accessible name, and a Copy button that puts the full address on the
 * clipboard and says "Copied" for a moment.
 */
import { Show, createSignal, onCleanup } from 'solid-js'
import { shortAddress } from '../logic/address.js'

/** How long "Copied" (or "Not copied") stays on the button. */
export const COPIED_MS = 1500

export interface AddressProps {
  address: string
  /** What the address is, for the accessible name (default "Address"). */
  label?: string
  testId?: string
}

export function Address(props: AddressProps) {
  const [copied, setCopied] = createSignal<'copied' | 'failed' | undefined>()
  let timer: ReturnType<typeof setTimeout> | undefined
  onCleanup(() => clearTimeout(timer))
  const short = () => shortAddress(props.address)
  const flash = (outcome: 'copied' | 'failed') => {
    setCopied(outcome)
    clearTimeout(timer)
    timer = setTimeout(() => setCopied(undefined), COPIED_MS)
  }
  const copy = async () => {
    try {
      if (navigator.clipboard === undefined) throw new Error('no clipboard')
      await navigator.clipboard.writeText(props.address)
      flash('copied')
    } catch {
      flash('failed')
    }
  }
  return (
    <span class="address" role="group" aria-label={`${props.label ?? 'Address'} ${props.address}`} data-testid={props.testId}>
      <code class="address-short" title={props.address}>
        {short()}
      </code>
      <button type="button" class="copy" aria-label={`${copied() === 'copied' ? 'Copied' : 'Copy'} address ${short()}`} onClick={() => void copy()}>
        {copied() === 'copied' ? 'Copied' : copied() === 'failed' ? 'Not copied' : 'Copy'}
      </button>
      <span class="visually-hidden" role="status">
        <Show when={copied()}>{(c) => (c() === 'copied' ? 'Address copied' : 'The browser did not allow copying')}</Show>
      </span>
    </span>
  )
}
