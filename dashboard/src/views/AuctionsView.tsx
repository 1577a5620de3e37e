/** Placeholder until the view lands. */
export function AuctionsView() {
  return <section><h2>AuctionsView</h2></section>
}
