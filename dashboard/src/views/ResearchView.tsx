/** Placeholder until the view lands. */
export function ResearchView() {
  return <section><h2>ResearchView</h2></section>
}
