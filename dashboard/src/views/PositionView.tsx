/** Placeholder until the view lands. */
export function PositionView() {
  return <section><h2>PositionView</h2></section>
}
