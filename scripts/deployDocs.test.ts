import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../sandbox/ts/launch.js'
import { docCommands, projectCommand, sequenceOf, shellBlocks, type DocCommand, type ProjectCommand } from '../test/docs/commands.js'

/**
 * The operator docs: the commands they show run as written. Every project command in them
 * (fenced or inline) uses only flags its `--help` lists, and the testnet deployment is one
 * command sequence, written in the operator guide and quoted or linked by the others.
 */
const GUIDE = 'docs/operator-guide.md'
const GUIDE_SECTION = '## Deploying the contracts'
const GUIDE_ANCHOR = 'operator-guide.md#deploying-the-contracts'
/** The docs that quote the guide's sequence or link to it. */
const OTHERS = ['README.md', 'src/keeper/README.md', 'src/deploy/README.md', 'deploy/README.md']
const DOCS = [GUIDE, ...OTHERS]
/** What starts the testnet deployment: every command that does must be the guide's. */
const TESTNET_DEPLOY = 'npm run deploy -- --network testnet'

const read = (doc: string) => readFileSync(join(REPO_ROOT, doc), 'utf8')
const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts)

const commands: DocCommand[] = DOCS.flatMap((doc) => docCommands(doc, read(doc)))
const project = commands.flatMap((c) => {
  const p = projectCommand(c.text, read('package.json'))
  return p === undefined ? [] : [{ ...c, p }]
})

interface Help {
  code: number
  stdout: string
  stderr: string
}

/** `npm run -s <script> -- <subcommand> --help`, or `npx tsx <file> <subcommand> --help`. */
function runHelp(p: ProjectCommand): Promise<Help> {
  const [file, args] = p.script !== undefined ? ['npm', ['run', '-s', p.script, '--', ...p.subcommand, '--help']] : ['npx', ['tsx', p.file!, ...p.subcommand, '--help']]
  return new Promise((resolve) => {
    execFile(file, args, { cwd: REPO_ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr })
    })
  })
}

/** Whether a usage text names `flag` as a whole word (`--secret` is not `--secret-file`). */
const listed = (usage: string, flag: string) => new RegExp(`(^|[^\\w-])${flag}($|[^\\w-])`, 'm').test(usage)

const helpKey = (p: ProjectCommand) => [p.script ?? p.file, ...p.subcommand].join(' ')
const helps = new Map<string, Help>()

beforeAll(async () => {
  const todo = new Map(project.map((c) => [helpKey(c.p), c.p]))
  const queue = [...todo]
  // Two at a time: each is a short Node process.
  const worker = async () => {
    for (let e = queue.shift(); e !== undefined; e = queue.shift()) helps.set(e[0], await runHelp(e[1]))
  }
  await Promise.all([worker(), worker()])
}, 300_000)

describe('the commands in the operator docs', () => {
  it('finds the project commands of every doc', () => {
    for (const doc of DOCS) expect(project.filter((c) => c.doc === doc).length, doc).toBeGreaterThan(0)
    expect(project.some((c) => c.p.script === 'deploy')).toBe(true)
  })

  it('name npm scripts that exist', () => {
    const unknown = commands.flatMap((c) => [...c.text.matchAll(/\bnpm run (?:-s )?([\w:-]+)/g)].map((m) => m[1]!).filter((s) => !scripts.includes(s)).map((s) => `${c.where}: npm run ${s}`))
    expect(unknown).toEqual([])
  })

  it('use only flags their --help lists', () => {
    const problems: string[] = []
    for (const c of project) {
      const key = helpKey(c.p)
      const h = helps.get(key)!
      if (h.code !== 0 || !/^usage:/m.test(h.stdout)) {
        problems.push(`${c.where}: ${key} --help exits ${h.code}: ${(h.stderr || h.stdout).trim().split('\n')[0]}`)
        continue
      }
      for (const flag of c.p.flags) {
        if (!listed(h.stdout, flag)) problems.push(`${c.where}: ${flag} is not in ${key} --help (\`${c.text}\`)`)
      }
    }
    expect(problems).toEqual([])
  })

  it('tell a flag the usage lists from one it does not', () => {
    const p = projectCommand('DEPLOYER_SECRET=S npm run -s deploy -- --network=testnet --secret x --out f.json', read('package.json'))
    expect(p).toEqual({ script: 'deploy', file: undefined, subcommand: [], flags: ['--network', '--secret', '--out'] })
    const usage = helps.get('deploy')!.stdout
    expect(p!.flags.map((f) => listed(usage, f))).toEqual([true, false, true])
    expect(projectCommand('npx tsx src/deploy/cli.ts --network local', read('package.json'))?.script).toBe('deploy')
    expect(projectCommand('npm run build:wasm', read('package.json'))).toBeUndefined()
  })
})

describe('one deploy command sequence', () => {
  const guide = read(GUIDE)
  const section = guide.slice(guide.indexOf(GUIDE_SECTION), guide.indexOf('\n## ', guide.indexOf(GUIDE_SECTION) + 1))
  const canonical = sequenceOf(shellBlocks(section)[0] ?? '')
  const deploy = canonical.find((c) => c.startsWith(TESTNET_DEPLOY))

  it('is the first shell block of the guide\'s section, building the contracts and deploying them', () => {
    expect(guide).toContain(`\n${GUIDE_SECTION}\n`)
    expect(canonical[0]).toBe('npm ci')
    expect(canonical).toContain('npm run build:wasm')
    expect(deploy).toBeDefined()
  })

  it('every testnet deploy command in the docs is the guide\'s', () => {
    const others = commands.filter((c) => c.text.startsWith(TESTNET_DEPLOY) && c.text !== deploy).map((c) => `${c.where}: ${c.text}`)
    expect(others).toEqual([])
  })

  it.each(OTHERS)('%s quotes the sequence or links to it', (doc) => {
    const text = read(doc)
    const quotes = shellBlocks(text).some((b) => {
      const seq = sequenceOf(b)
      return seq.some((_, i) => canonical.every((c, j) => seq[i + j] === c))
    })
    expect(quotes || text.includes(GUIDE_ANCHOR), `${doc}: neither the guide's sequence nor a link to ${GUIDE_ANCHOR}`).toBe(true)
  })
})
