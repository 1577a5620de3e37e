import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { nodeLineProblems, type NodeLineFiles } from './lib/nodeLine.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8')
const PINNED = read('.node-version').trim()
const MAJOR = PINNED.split('.')[0]!

function repoFiles(): NodeLineFiles {
  const dockerfiles = execFileSync('git', ['ls-files', '*Dockerfile', '*.Dockerfile'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '')
  return {
    pinned: read('.node-version'),
    packageJson: read('package.json'),
    packageLock: read('package-lock.json'),
    dockerfiles: Object.fromEntries(dockerfiles.map((f) => [f, read(f)])),
    buildKeeper: read('scripts/build-keeper.sh'),
    nodeSh: read('scripts/lib/node.sh'),
    sdkPackageJson: read('packages/keeper-sdk/package.json'),
    sdkBuild: read('packages/keeper-sdk/build.ts'),
  }
}

describe('one Node line', () => {
  it('the repository agrees with .node-version everywhere', () => {
    const files = repoFiles()
    expect(Object.keys(files.dockerfiles)).toEqual(expect.arrayContaining(['Dockerfile', 'deploy/k8s/sim.Dockerfile']))
    expect(nodeLineProblems(files)).toEqual([])
  })

  it('the machine running the suite is on that line', () => {
    expect(process.versions.node.split('.')[0]).toBe(MAJOR)
  })

  it('names a Dockerfile on another line, an npm install in it, and engines that exclude the pin', () => {
    const files = repoFiles()
    const wrong: NodeLineFiles = {
      ...files,
      packageJson: files.packageJson.replace(/"node": "\^\d+\.\d+\.\d+"/, '"node": "^22.12.0"'),
      dockerfiles: { Dockerfile: 'FROM node:20-bookworm-slim AS build\nRUN npm install --no-audit\n' },
      buildKeeper: files.buildKeeper.replace(/--target=node\d+/, '--target=node20'),
    }
    expect(nodeLineProblems(wrong)).toEqual([
      `package.json: engines.node ^22.12.0 does not admit .node-version ${PINNED}`,
      `Dockerfile: FROM node:20-bookworm-slim is not node:${MAJOR}-bookworm-slim`,
      'Dockerfile: RUN npm install --no-audit (use npm ci: the lock file decides)',
      `scripts/build-keeper.sh: esbuild --target=node20 for an executable built on Node ${MAJOR}`,
    ])
  })

  it("names a keeper SDK range its peer refuses and a bundle target off the range's floor", () => {
    const files = repoFiles()
    const wrong: NodeLineFiles = {
      ...files,
      dockerfiles: {},
      sdkPackageJson: files.sdkPackageJson.replace(/"node": "[^"]+"/, '"node": ">=20.0.0"'),
    }
    expect(nodeLineProblems(wrong)).toEqual([
      'packages/keeper-sdk/package.json: engines.node >=20.0.0 admits releases its peer @stellar/stellar-sdk refuses (>=22.12.0)',
      'packages/keeper-sdk/build.ts: target node22 for a package whose engines start at Node 20',
    ])
  })
})
