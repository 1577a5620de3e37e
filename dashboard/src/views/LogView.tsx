/** Placeholder until the view lands. */
export function LogView() {
  return <section><h2>LogView</h2></section>
}
