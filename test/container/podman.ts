/**
 * Podman from the container end-to-end test: availability (why the test skips), commands through
 * scripts/container/podman.sh (runtime runc, no default ulimits), container state from
 * `podman inspect` and the kernel, and the repository's image scripts.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'
import { runCaptured, type Run } from '../process/captured.js'

export const PODMAN_SH = join(REPO_ROOT, 'scripts', 'container', 'podman.sh')
export const CONTAINERS_CONF = join(REPO_ROOT, 'scripts', 'container', 'containers.conf')
export const KEEPER_IMAGE = 'localhost/stellar-pooled-liquidations/keeper:latest'
export const SIM_IMAGE = 'localhost/stellar-pooled-liquidations-sim:latest'
export const BASE_IMAGES = ['docker.io/library/node:24-bookworm-slim', 'gcr.io/distroless/cc-debian12:nonroot']

/** The environment podman and podman-compose run with: this repository's containers.conf. */
export const podmanEnv = (): NodeJS.ProcessEnv => ({ ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? CONTAINERS_CONF })

export function which(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0
}

/**
 * Why the container test cannot run here, or null when it can: podman and podman-compose
 * installed, root (mmdebstrap and the rootful podman the scripts use), and mmdebstrap unless
 * the base images exist already.
 */
export function skipReason(): string | null {
  if (!which('podman')) return 'podman is not installed (Debian: apt-get install podman runc podman-compose mmdebstrap)'
  if (!which('podman-compose')) return 'podman-compose is not installed (Debian: apt-get install podman-compose)'
  if (process.getuid?.() !== 0) return 'not root: the base images and the containers are made with rootful podman'
  const haveBases = BASE_IMAGES.every((i) => spawnSync('podman', ['image', 'exists', i], { env: podmanEnv(), stdio: 'ignore' }).status === 0)
  if (!haveBases && !which('mmdebstrap')) return 'mmdebstrap is not installed and the base images do not exist (Debian: apt-get install mmdebstrap)'
  return null
}

export type { Run }

/** `cmd args` with its output captured (see `runCaptured`), in the repository with podman's environment by default. */
export function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<Run> {
  return runCaptured(cmd, args, { ...opts, cwd: opts.cwd ?? REPO_ROOT, env: opts.env ?? podmanEnv() })
}

/** A command that must succeed: its stdout, or an error with both streams' tails. */
export async function ok(cmd: string, args: string[], opts: Parameters<typeof run>[2] = {}): Promise<Run> {
  const r = await run(cmd, args, opts)
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`)
  return r
}

export const podman = (args: string[], opts: Parameters<typeof run>[2] = {}) => run(PODMAN_SH, args, opts)
export const podmanOk = (args: string[], opts: Parameters<typeof run>[2] = {}) => ok(PODMAN_SH, args, opts)

/** One field of `podman inspect` (a Go template such as {{.State.ExitCode}}), trimmed. */
export async function inspect(name: string, template: string): Promise<string> {
  return (await podmanOk(['inspect', '--format', template, name])).stdout.trim()
}

/** One field of `podman image inspect` (its config carries the HEALTHCHECK, a container's does not), trimmed. */
export async function inspectImage(image: string, template: string): Promise<string> {
  return (await podmanOk(['image', 'inspect', '--format', template, image])).stdout.trim()
}

/** An image's size in bytes, as `podman images` reports it. */
export async function imageBytes(image: string): Promise<number> {
  return Number(await inspectImage(image, '{{.Size}}'))
}

/** The real, effective, saved and file-system uids of a container's main process, from the host's /proc. */
export async function processUids(container: string): Promise<number[]> {
  const pid = await inspect(container, '{{.State.Pid}}')
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('Uid:'))
  return (line ?? '').split(/\s+/).slice(1).filter(Boolean).map(Number)
}

/** Removes containers (and their anonymous volumes) if they exist. */
export async function removeContainers(...names: string[]): Promise<void> {
  await podman(['rm', '--force', '--volumes', '--ignore', ...names])
}

/** A TCP port free on the host right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

export { waitFor } from '../until.js'

/** GET a URL: its status, or 0 when nothing answered. */
export async function httpStatus(url: string): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) })
    await res.arrayBuffer()
    return res.status
  } catch {
    return 0
  }
}

/** The value of an unlabelled Prometheus sample in a /metrics text, or undefined. */
export function metric(text: string, name: string): number | undefined {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text)
  return m ? Number(m[1]) : undefined
}

/** Runs one of scripts/container/*.sh; the build scripts mount NODE_EXTRA_CA_CERTS for npm when BUILD_CA_FILE is unset. */
export function containerScript(script: string, args: string[], timeoutMs: number): Promise<Run> {
  return ok('bash', [join(REPO_ROOT, 'scripts', 'container', script), ...args], { timeoutMs })
}
