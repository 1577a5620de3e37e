/** Placeholder until the view lands. */
export function SettingsView() {
  return <section><h2>SettingsView</h2></section>
}
