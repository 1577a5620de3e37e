/**
 * Shell commands as a Markdown document shows them: fenced `sh` / `bash` / `shell` blocks and
 * inline code that starts with `npm run` or `npx tsx`, for the docs tests
 * (scripts/deployDocs.test.ts).
 */

/** One command of a document: where it is (`doc:line`) and its text, normalised. */
export interface DocCommand {
  doc: string
  where: string
  text: string
}

/** A command of the project's own, with the flags it passes. */
export interface ProjectCommand {
  /** The npm script (`npm run <script>`, or `npx tsx <file>` of a script's entry). */
  script: string | undefined
  /** `npx tsx <file>` that no npm script runs. */
  file: string | undefined
  /** Leading arguments that are not flags (`run crash-30` of `npm run sim -- run crash-30 ...`). */
  subcommand: string[]
  /** `--name` / `-x` as written, without `=value`. */
  flags: string[]
}

/** The npm scripts that answer `--help` with their usage. */
export const HELP_SCRIPTS = ['deploy', 'keeper', 'sim', 'audit', 'sandbox', 'demo', 'dashboard']

const FENCE = /^```([\w-]*)[^\n]*\n([\s\S]*?)^```[ \t]*$/gm
const SHELL = ['sh', 'bash', 'shell']
const OPERATORS = /\s*(?:&&|\|\||;)\s*|\s+\|\s+|\s+&(?=\s|$)/

/** The bodies of a document's fenced shell blocks, in order. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(FENCE)].filter((m) => SHELL.includes(m[1]!)).map((m) => m[2]!)
}

/** A line of shell as one command each: comments off, `&&`, `||`, `;`, `|`, `&` split, blanks collapsed. */
function commandsOfLine(line: string): string[] {
  return line
    .replace(/(^|\s)#.*$/, '')
    .split(OPERATORS)
    .map((c) => c.trim().replace(/\s+/g, ' '))
    .filter((c) => c !== '')
}

/** A shell block's commands in order (continuation lines joined). */
export function sequenceOf(block: string): string[] {
  return block
    .replace(/\\\n/g, ' ')
    .split('\n')
    .flatMap(commandsOfLine)
}

/** Every command of a document: the fenced shell blocks', then inline `npm run …` / `npx tsx …`. */
export function docCommands(doc: string, markdown: string): DocCommand[] {
  const out: DocCommand[] = []
  const lineAt = (index: number) => markdown.slice(0, index).split('\n').length
  for (const m of markdown.matchAll(FENCE)) {
    if (!SHELL.includes(m[1]!)) continue
    const first = lineAt(m.index!) + 1
    const lines = m[2]!.split('\n')
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!
      const at = i
      while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i]}`
      for (const text of commandsOfLine(line)) out.push({ doc, where: `${doc}:${first + at}`, text })
    }
  }
  // Inline code outside the fences (blanked, keeping line numbers); a span may wrap a line.
  const prose = markdown.replace(FENCE, (block) => block.replace(/[^\n]/g, ' '))
  for (const m of prose.matchAll(/`([^`]+)`/g)) {
    const span = m[1]!.replace(/\s+/g, ' ').trim()
    if (!/^(npm run|npx tsx) /.test(`${span} `)) continue
    for (const text of commandsOfLine(span)) out.push({ doc, where: `${doc}:${lineAt(m.index!)}`, text })
  }
  return out
}

/** Words of a command, quotes kept off (`'a b'` is one word). */
function words(command: string): string[] {
  return [...command.matchAll(/'[^']*'|"[^"]*"|\S+/g)].map((m) => m[0].replace(/^(['"])(.*)\1$/, '$2'))
}

/**
 * The project command `command` runs, or undefined for anything else (`npm ci`, a build script,
 * `stellar`, `./dist/keeper`). `packageJson` maps `npx tsx <file>` to the script that runs it.
 */
export function projectCommand(command: string, packageJson: string): ProjectCommand | undefined {
  const w = words(command)
  while (w.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(w[0]!)) w.shift()
  let script: string | undefined
  let file: string | undefined
  let args: string[]
  if (w[0] === 'npm' && w[1] === 'run') {
    let i = 2
    while (w[i] === '-s' || w[i] === '--silent') i++
    script = w[i]
    if (script === undefined || !HELP_SCRIPTS.includes(script)) return undefined
    args = w[i + 1] === '--' ? w.slice(i + 2) : []
  } else if (w[0] === 'npx' && w[1] === 'tsx' && w[2] !== undefined) {
    const scripts = (JSON.parse(packageJson) as { scripts: Record<string, string> }).scripts
    script = Object.keys(scripts).find((s) => HELP_SCRIPTS.includes(s) && scripts[s]!.endsWith(` tsx ${w[2]}`))
    if (script === undefined) file = w[2]
    args = w.slice(3)
  } else {
    return undefined
  }
  const firstFlag = args.findIndex((a) => a.startsWith('-'))
  const subcommand = firstFlag === -1 ? args : args.slice(0, firstFlag)
  const flags = args.filter((a) => /^--?[a-zA-Z]/.test(a)).map((a) => a.split('=')[0]!)
  return { script, file, subcommand, flags }
}
