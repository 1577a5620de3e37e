/**
 * The container images, built and run with podman (Debian 12's 4.3, runtime runc, see
 * scripts/container/containers.conf). Skips, saying why, where podman, podman-compose or root
 * is missing.
 *   1. base images from Debian's packages and the npm registry (scripts/container/base-images.sh,
 *      kept when they exist), then the keeper image from the root Dockerfile
 *   2. the keeper container against a sandbox on the host: /healthz 200, the image's HEALTHCHECK,
 *      registration and poll cycles, uid 65532, SIGTERM within the compose file's grace period
 *   3. deploy/docker-compose.yml with podman-compose: up, healthy, registered, the API published
 *      on 127.0.0.1 only, stop
 *   4. the sim image: two shards run as the Indexed Job of deploy/k8s/sim-sweep.yaml runs its
 *      pods, then the merge Job of sim-merge.yaml; the merged aggregate is one machine's, byte
 *      for byte
 * Prints the figures (image sizes, build times, start to healthy) at the end.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureSandboxBinary, startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { RegistryContract, VaultContract } from '../../src/keeper/clients/index.js'
import { deployVaultWorld, REPO_ROOT, type VaultWorld } from '../../test/keeper/vaultWorld.js'
import { keeperEnvFromExample, writeComposeProject, type ComposeProject } from '../../test/container/composeProject.js'
import { podEnv, podmanRunArgs, readJob } from '../../test/container/k8sJob.js'
import { expectSameAggregates } from '../../test/sim/sweepHelpers.js'
import {
  KEEPER_IMAGE,
  SIM_IMAGE,
  containerScript,
  freePort,
  httpStatus,
  imageBytes,
  inspect,
  inspectImage,
  metric,
  ok,
  podman,
  podmanOk,
  processUids,
  removeContainers,
  run,
  skipReason,
  waitFor,
} from '../../test/container/podman.js'

const reason = skipReason()
if (reason !== null) console.log(`[images.e2e] skipped: ${reason}`)

const figures: Array<[string, string]> = []
const figure = (what: string, value: string) => void figures.push([what, value])
const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** The keeper's stop grace period: stop_grace_period in deploy/docker-compose.yml. */
const GRACE_S = Number(/stop_grace_period: (\d+)s/.exec(readFileSync(join(REPO_ROOT, 'deploy', 'docker-compose.yml'), 'utf8'))?.[1])
const NONROOT = [65532, 65532, 65532, 65532]
const DEPOSIT = 50_0000000n

describe.skipIf(reason !== null)('container images (podman)', () => {
  let sandbox: Sandbox | undefined
  let world: VaultWorld
  let rpcPort: string

  beforeAll(async () => {
    expect(GRACE_S).toBeGreaterThan(0)
    const base = await containerScript('base-images.sh', ['all'], 900_000)
    figure('base images (made, or found)', secs(base.ms))
    const keeper = await containerScript('build-image.sh', ['keeper'], 900_000)
    figure('keeper image build', secs(keeper.ms))
    // On every address: the compose container reaches it through its network's gateway.
    sandbox = await startSandbox({ extraArgs: ['--host', '0.0.0.0'] })
    rpcPort = new URL(sandbox.rpcUrl).port
    world = await deployVaultWorld({ ...sandbox, rpcUrl: `http://127.0.0.1:${rpcPort}/rpc`, friendbotUrl: `http://127.0.0.1:${rpcPort}/friendbot` })
    const depositor = await world.newAccount(DEPOSIT)
    await new VaultContract(world.chain, world.vault).deposit(depositor, DEPOSIT)
  }, 1_800_000)

  afterAll(async () => {
    await sandbox?.stop()
    if (figures.length > 0) console.log(['[images.e2e] figures', ...figures.map(([k, v]) => `  ${k}: ${v}`)].join('\n'))
  })

  /** A keeper operator holding twice the registry's stake. */
  const stakedKeeper = (): Promise<Keypair> => world.newAccount(world.minStake * 2n)
  const chainEnv = () => ({
    REGISTRY_CONTRACT: world.registry,
    VAULT_CONTRACT: world.vault,
    USDC_CONTRACT: world.usdc,
    NETWORK_PASSPHRASE: world.chain.networkPassphrase,
    POLL_INTERVAL: '3',
  })

  /** The keeper's API says registered with two cycles done, the registry lists it, /metrics counts the cycles. */
  async function expectRegisteredAndCycling(api: string, operator: string): Promise<void> {
    const state = await waitFor(
      'registration and two poll cycles',
      async () => {
        const s = (await (await fetch(`${api}/api/state`)).json()) as { registration: string; cycles: { count: number }; vault: { totalUsdc: string } | null }
        return s.registration === 'registered' && s.cycles.count >= 2 ? s : undefined
      },
      90_000,
    )
    expect(state.vault?.totalUsdc).toBe(DEPOSIT.toString())
    const keepers = await new RegistryContract(world.chain, world.registry).getKeepers()
    expect(keepers.map((k) => k.operator)).toContain(operator)
    expect(metric(await (await fetch(`${api}/metrics`)).text(), 'service_cycles_total')).toBeGreaterThanOrEqual(2)
  }

  async function expectHealthcheckPasses(container: string): Promise<void> {
    const hc = await podman(['healthcheck', 'run', container])
    expect(hc.code, hc.stdout + hc.stderr).toBe(0)
    expect(await inspect(container, '{{.State.Health.Status}}')).toBe('healthy')
  }

  /** SIGTERM (podman stop's signal for this image) ended it cleanly within the grace period. */
  async function expectCleanStop(container: string, stopMs: number): Promise<void> {
    expect(stopMs).toBeLessThan(GRACE_S * 1000)
    expect(await inspect(container, '{{.State.ExitCode}}')).toBe('0')
    const logs = (await podmanOk(['logs', container])).stdout
    expect(logs).toMatch(/"signal":"SIGTERM","msg":"shutting down"/)
    expect(logs).toMatch(/"msg":"keeper stopped"/)
  }

  describe('keeper image (root Dockerfile)', () => {
    const name = `keeper-e2e-${process.pid}`
    afterAll(() => removeContainers(name))

    it('runs as uid 65532: /healthz 200, HEALTHCHECK passes, registers, cycles, stops on SIGTERM within the grace period', async () => {
      figure('keeper image size', mb(await imageBytes(KEEPER_IMAGE)))
      expect(await inspectImage(KEEPER_IMAGE, '{{.Config.User}}')).toBe('65532')
      expect(await inspectImage(KEEPER_IMAGE, '{{json .Config.Healthcheck.Test}}')).toBe('["CMD","/app/keeper","healthcheck"]')
      const keeper = await stakedKeeper()
      const port = await freePort()
      const env = {
        ...chainEnv(),
        KEEPER_SECRET: keeper.secret(),
        KEEPER_NAME: 'container-keeper',
        CONTRACT_RPC: `http://127.0.0.1:${rpcPort}/rpc`,
        API_PORT: String(port),
        API_HOST: '127.0.0.1',
      }
      const start = Date.now()
      await podmanOk(['run', '--detach', '--name', name, '--network', 'host', ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]), KEEPER_IMAGE])
      await waitFor('/healthz 200', async () => ((await httpStatus(`http://127.0.0.1:${port}/healthz`)) === 200 ? true : undefined), 60_000)
      figure('keeper container: podman run to /healthz 200', secs(Date.now() - start))
      await expectHealthcheckPasses(name)
      await expectRegisteredAndCycling(`http://127.0.0.1:${port}`, keeper.publicKey())
      expect(await processUids(name)).toEqual(NONROOT)
      const stop = await podmanOk(['stop', '--time', String(GRACE_S), name])
      figure('keeper container: podman stop (SIGTERM) to exit', secs(stop.ms))
      await expectCleanStop(name, stop.ms)
    }, 180_000)
  })

  describe('deploy/docker-compose.yml with podman-compose', () => {
    const projectName = `keepere2e${process.pid}`
    let project: ComposeProject | undefined
    const compose = (args: string[]) => ok('podman-compose', ['-p', projectName, '-f', project!.file, ...args], { cwd: project!.dir, timeoutMs: 120_000 })
    const containers = async () =>
      (await podmanOk(['ps', '--all', '--filter', `label=com.docker.compose.project=${projectName}`, '--format', '{{.Names}}'])).stdout.split('\n').filter(Boolean)
    afterAll(async () => {
      if (project) await run('podman-compose', ['-p', projectName, '-f', project.file, 'down'], { cwd: project.dir })
    })

    it('up: healthy, registered, cycling, API on 127.0.0.1 only, uid 65532; stop within the grace period; down removes it', async () => {
      const keeper = await stakedKeeper()
      project = writeComposeProject({
        hostPort: await freePort(),
        secret: keeper.secret(),
        env: keeperEnvFromExample(
          { ...chainEnv(), KEEPER_NAME: 'compose-keeper', CONTRACT_RPC: `http://host.containers.internal:${rpcPort}/rpc` },
          ['DEPLOYMENTS_FILE'],
        ),
      })
      const start = Date.now()
      await compose(['up', '-d'])
      const [name, ...others] = await containers()
      expect(others).toEqual([])
      const api = `http://127.0.0.1:${project.hostPort}`
      await waitFor('/healthz 200 through the published port', async () => ((await httpStatus(`${api}/healthz`)) === 200 ? true : undefined), 60_000)
      figure('compose: podman-compose up to /healthz 200', secs(Date.now() - start))
      await expectHealthcheckPasses(name!)
      await expectRegisteredAndCycling(api, keeper.publicKey())
      expect(await inspect(name!, '{{json .HostConfig.PortBindings}}')).toBe(`{"8080/tcp":[{"HostIp":"127.0.0.1","HostPort":"${project.hostPort}"}]}`)
      expect(await inspect(name!, '{{.HostConfig.RestartPolicy.Name}}')).toBe('unless-stopped')
      expect(await processUids(name!)).toEqual(NONROOT)
      // podman-compose 1.0.3 does not hand stop_grace_period to podman: the timeout is given here.
      const stop = await compose(['stop', '--timeout', String(GRACE_S)])
      figure('compose: podman-compose stop to exit', secs(stop.ms))
      await expectCleanStop(name!, stop.ms)
      await compose(['down'])
      expect(await containers()).toEqual([])
    }, 240_000)
  })

  describe('sim image (deploy/k8s)', () => {
    /** A small sweep: 2 grid points x 2 seeds of the short crash scenario. */
    const SWEEP = ['sim/scenarios/crash-short.yaml', '--set', 'keepers.minProfit=1.01,1.05', '--seeds', '2', '--seed-base', '1']
    const RUNS = 4
    const SHARDS = 2
    const volume = `sim-e2e-${process.pid}`
    const names = [...Array.from({ length: SHARDS }, (_, i) => `${volume}-shard-${i}`), `${volume}-merge`]
    afterAll(async () => {
      await removeContainers(...names)
      await podman(['volume', 'rm', '--force', volume])
    })

    it("two shard pods of the Indexed Job and the merge Job: the merged aggregate is one machine's, byte for byte", async () => {
      ensureSandboxBinary()
      const build = await containerScript('build-image.sh', ['sim'], 900_000)
      figure('sim image build', secs(build.ms))
      figure('sim image size', mb(await imageBytes(SIM_IMAGE)))

      const sweepJob = readJob('deploy/k8s/sim-sweep.yaml')
      const declared = Number(sweepJob.container.env.find((e) => e.name === 'SHARDS')?.value)
      expect(sweepJob.completionMode).toBe('Indexed')
      expect([sweepJob.completions, sweepJob.parallelism]).toEqual([declared, declared])
      // The Job's sweep definition is replaced by the small one; how a pod picks its shard is kept.
      const jobArgs = sweepJob.container.args
      const tail = jobArgs.slice(jobArgs.indexOf('--workers'))
      expect(jobArgs[0]).toBe('sweep')
      expect(tail).toEqual(['--workers', '$(WORKERS)', '--shard', '$(JOB_COMPLETION_INDEX)/$(SHARDS)', '--out', '/out/shard-$(JOB_COMPLETION_INDEX)'])

      const mergeJob = readJob('deploy/k8s/sim-merge.yaml')
      const listed = mergeJob.container.args.filter((a) => /^\/out\/shard-\d+$/.test(a))
      expect(listed).toEqual(Array.from({ length: declared }, (_, i) => `/out/shard-${i}`))
      const mergeArgs = mergeJob.container.args.filter((a) => !listed.slice(SHARDS).includes(a))

      await podmanOk(['volume', 'create', volume])
      const oneMachine = join(mkdtempSync(join(tmpdir(), 'sim-one-machine-')), 'sweep')
      const start = Date.now()
      const [shards] = await Promise.all([
        Promise.all(
          Array.from({ length: SHARDS }, (_, i) =>
            podman(
              [
                'run',
                ...podmanRunArgs(sweepJob, {
                  name: names[i]!,
                  image: SIM_IMAGE,
                  env: podEnv(sweepJob.container, i, { SHARDS: String(SHARDS), WORKERS: '1' }),
                  volumes: { results: volume },
                  args: ['sweep', ...SWEEP, ...tail],
                }),
              ],
              { timeoutMs: 1_200_000 },
            ),
          ),
        ),
        ok('npm', ['run', '--silent', 'sim', '--', 'sweep', ...SWEEP, '--workers', '2', '--out', oneMachine], { env: process.env, timeoutMs: 1_200_000 }),
      ])
      for (const s of shards) expect(s.code, `${s.stdout.slice(-2000)}\n${s.stderr.slice(-2000)}`).toBe(0)
      figure(`sim: ${SHARDS} shard containers (${RUNS} runs) beside one machine's sweep on the host`, secs(Date.now() - start))

      const merged = await podman(
        ['run', ...podmanRunArgs(mergeJob, { name: names[SHARDS]!, image: SIM_IMAGE, env: podEnv(mergeJob.container, undefined), volumes: { results: volume }, args: mergeArgs })],
        { timeoutMs: 300_000 },
      )
      expect(merged.code, `${merged.stdout.slice(-2000)}\n${merged.stderr.slice(-2000)}`).toBe(0)
      figure('sim: merge container', secs(merged.ms))

      const out = (await podmanOk(['volume', 'inspect', '--format', '{{.Mountpoint}}', volume])).stdout.trim()
      for (let i = 0; i < SHARDS; i++) expect(readdirSync(join(out, `shard-${i}`, 'runs'))).toHaveLength(RUNS / SHARDS)
      expect(readdirSync(join(out, 'merged', 'runs'))).toHaveLength(RUNS)
      expectSameAggregates(join(out, 'merged'), oneMachine)
    }, 1_800_000)
  })
})
