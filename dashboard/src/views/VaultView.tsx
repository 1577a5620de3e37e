/** Placeholder until the view lands. */
export function VaultView() {
  return <section><h2>VaultView</h2></section>
}
