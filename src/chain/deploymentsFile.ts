/** Reads a deployments file from disk (Node only); the format is in deployments.ts. */
import { readFileSync } from 'node:fs'
import { DeploymentsError, parseDeployments, type Deployments } from './deployments.js'

/** @throws DeploymentsError (unreadable, not JSON, or not a deployments file) */
export function readDeploymentsFile(path: string): Deployments {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new DeploymentsError(path, [`cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`])
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new DeploymentsError(path, [`not JSON (${(err as Error).message})`])
  }
  return parseDeployments(json, path)
}
