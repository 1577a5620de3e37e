/** Placeholder until the view lands. */
export function WalletBar() {
  return <section><h2>WalletBar</h2></section>
}
