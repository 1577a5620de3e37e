/** Placeholder until the view lands. */
export function KeepersView() {
  return <section><h2>KeepersView</h2></section>
}
