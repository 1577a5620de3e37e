/** The problems a scenario's parser reports for `text` (the scenario tests' refusals). */
import { expect } from 'vitest'
import { parseScenarioText, ScenarioError } from '../../sim/src/scenario/load.js'

/** The ScenarioError's problems for `text` with `overrides`; throws when the scenario is accepted. */
export function problems(text: string, overrides: { path: string; value: unknown }[] = []): string[] {
  try {
    parseScenarioText(text, 'bad.yaml', overrides)
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError)
    return (err as ScenarioError).problems
  }
  throw new Error('expected the scenario to be refused')
}
