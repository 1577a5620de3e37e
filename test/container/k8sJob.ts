/**
 * A Kubernetes Job's pod, as `podman run` arguments: the container's command (the image's
 * entrypoint replaced) and args, its env with `$(VAR)` references expanded as the kubelet does,
 * JOB_COMPLETION_INDEX for an Indexed Job, the pod's user and groups, and its volume
 * mounts on a named podman volume.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'

interface EnvVar {
  name: string
  value?: string
  valueFrom?: { fieldRef?: { fieldPath: string } }
}

export interface JobContainer {
  name: string
  image: string
  command: string[]
  args: string[]
  env: EnvVar[]
  volumeMounts: Array<{ name: string; mountPath: string }>
}

export interface JobManifest {
  completionMode?: string
  completions?: number
  parallelism?: number
  runAsUser?: number
  runAsGroup?: number
  fsGroup?: number
  container: JobContainer
}

/** The Job in a manifest file of deploy/k8s (other documents, such as a PVC, are skipped). */
export function readJob(file: string): JobManifest {
  const docs = parseAllDocuments(readFileSync(join(REPO_ROOT, file), 'utf8')).map((d) => d.toJS() as Record<string, unknown>)
  const job = docs.find((d) => d.kind === 'Job') as
    | { spec: { completionMode?: string; completions?: number; parallelism?: number; template: { spec: Record<string, unknown> } } }
    | undefined
  if (!job) throw new Error(`${file} has no Job`)
  const pod = job.spec.template.spec as { securityContext?: { runAsUser?: number; runAsGroup?: number; fsGroup?: number }; containers: JobContainer[] }
  const [container] = pod.containers
  if (!container || pod.containers.length !== 1) throw new Error(`${file}: expected one container`)
  return {
    ...(job.spec.completionMode === undefined ? {} : { completionMode: job.spec.completionMode }),
    ...(job.spec.completions === undefined ? {} : { completions: job.spec.completions }),
    ...(job.spec.parallelism === undefined ? {} : { parallelism: job.spec.parallelism }),
    ...(pod.securityContext?.runAsUser === undefined ? {} : { runAsUser: pod.securityContext.runAsUser }),
    ...(pod.securityContext?.runAsGroup === undefined ? {} : { runAsGroup: pod.securityContext.runAsGroup }),
    ...(pod.securityContext?.fsGroup === undefined ? {} : { fsGroup: pod.securityContext.fsGroup }),
    container: { ...container, args: container.args ?? [], env: container.env ?? [], volumeMounts: container.volumeMounts ?? [] },
  }
}

/** `$(NAME)` replaced by NAME's value when it is defined, `$$(` kept as a literal `$(` (the kubelet's rules). */
export function expandK8s(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$\(|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string | undefined) =>
    name === undefined ? '$(' : (env[name] ?? whole),
  )
}

/**
 * The pod's environment: plain values (with `overrides` winning), and JOB_COMPLETION_INDEX from
 * the completion-index annotation when the pod has one. Later variables may refer to earlier ones.
 */
export function podEnv(c: JobContainer, completionIndex: number | undefined, overrides: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const v of c.env) {
    const annotation = v.valueFrom?.fieldRef?.fieldPath
    if (annotation !== undefined) {
      if (annotation !== "metadata.annotations['batch.kubernetes.io/job-completion-index']") throw new Error(`unsupported fieldRef ${annotation}`)
      if (completionIndex === undefined) throw new Error(`${v.name} needs a completion index`)
      env[v.name] = String(completionIndex)
    } else {
      env[v.name] = expandK8s(overrides[v.name] ?? v.value ?? '', env)
    }
  }
  // The Job controller sets it in every pod of an Indexed Job, declared or not.
  if (completionIndex !== undefined) env.JOB_COMPLETION_INDEX = String(completionIndex)
  return env
}

/**
 * `podman run` arguments (after `run`) for the pod: its user and group, env, volumes mounted
 * from `volumes` (pod volume name → podman volume), the container's command as the entrypoint,
 * then its args expanded against the env.
 */
export function podmanRunArgs(job: JobManifest, p: { name: string; image: string; env: Record<string, string>; volumes: Record<string, string>; args?: string[] }): string[] {
  const c = job.container
  const out = ['--name', p.name]
  // Without runAsGroup a pod's primary group is 0; fsGroup is a supplementary group.
  if (job.runAsUser !== undefined) out.push('--user', `${job.runAsUser}:${job.runAsGroup ?? 0}`)
  if (job.fsGroup !== undefined) out.push('--group-add', String(job.fsGroup))
  for (const [k, v] of Object.entries(p.env)) out.push('--env', `${k}=${v}`)
  for (const m of c.volumeMounts) {
    const volume = p.volumes[m.name]
    if (volume === undefined) throw new Error(`no podman volume for pod volume ${m.name}`)
    out.push('--volume', `${volume}:${m.mountPath}`)
  }
  if (c.command.length > 0) out.push('--entrypoint', JSON.stringify(c.command))
  out.push(p.image, ...(p.args ?? c.args).map((a) => expandK8s(a, p.env)))
  return out
}
