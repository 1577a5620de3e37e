/** Reads the configuration sources in the browser: config.json, the URL, saved settings. */
import { mergePatches, parseConfig, patchFromParams, type ConfigPatch, type DashboardConfig } from './schema.js'

const STORAGE_KEY = 'pooled-liquidations.config'

async function fromServer(): Promise<ConfigPatch> {
  try {
    const res = await fetch('./config.json', { cache: 'no-store' })
    if (!res.ok) return {}
    return (await res.json()) as ConfigPatch
  } catch {
    return {}
  }
}

export function savedPatch(): ConfigPatch {
  try {
    const raw = localStorage.getItem(STORAGE_KEY)
    return raw ? (JSON.parse(raw) as ConfigPatch) : {}
  } catch {
    return {}
  }
}

export function savePatch(patch: ConfigPatch): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(patch))
}

export function clearSaved(): void {
  localStorage.removeItem(STORAGE_KEY)
}

export interface LoadedConfig {
  config: DashboardConfig | undefined
  problems: string[]
  /** The merged sources, to prefill the Settings form. */
  patch: ConfigPatch
}

export async function loadConfig(): Promise<LoadedConfig> {
  const patch = mergePatches(await fromServer(), savedPatch(), patchFromParams(new URLSearchParams(location.search)))
  const parsed = parseConfig(patch)
  return parsed.ok ? { config: parsed.config, problems: [], patch } : { config: undefined, problems: parsed.problems, patch }
}
