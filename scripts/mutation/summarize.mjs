// The summary of a mutation run: StrykerJS's JSON report, joined with certify-test.mjs's log (what
// certify said about each mutant) and equivalent.json (survivors a reviewer can check are
// equivalent), as the Markdown of RESULTS.md. Also a CLI, to rewrite the summary of a kept run:
//
//   node scripts/mutation/summarize.mjs [--work <dir>] [--results <file>] [--meta <json file>]
import { readFileSync, existsSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { SourceMapConsumer } from 'source-map'

const here = dirname(fileURLToPath(import.meta.url))

/** The mutated files, by the key `--files` takes: the TypeScript source without `.ts` (its compiled file is `dist/<it>.js`). */
export const FILES = {
  factory: 'core/factory/reference-factory',
  agent: 'core/agent',
  driver: 'core/driver',
  inbox: 'core/inbox',
  session: 'core/session',
  'session-store': 'core/session-store',
  registry: 'core/registry',
  initiator: 'core/initiator',
}

/** The two groups the issue's targets are set on. */
export const GROUPS = [
  { name: 'reference factory, agent and driver', keys: ['factory', 'agent', 'driver'] },
  { name: "the kit's inbox, session, store, registry and initiator", keys: ['inbox', 'session', 'session-store', 'registry', 'initiator'] },
]

const collapse = (text) => text.replace(/\s+/g, ' ').trim()
const clip = (text, n = 80) => (text.length > n ? `${text.slice(0, n - 1)}…` : text)

/** The source text a mutant replaces (Stryker locations: 1-based lines and columns, end exclusive). */
function originalText(source, { start, end }) {
  const lines = source.split('\n')
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1)
  const parts = [lines[start.line - 1].slice(start.column - 1)]
  for (let l = start.line; l < end.line - 1; l++) parts.push(lines[l])
  parts.push(lines[end.line - 1].slice(0, end.column - 1))
  return parts.join('\n')
}

/** The key an equivalent.json entry and a mutant are matched on. */
export const equivalenceKey = (m) => [m.file, m.line, m.mutator, clip(collapse(m.original)), collapse(m.replacement)].join('\u0000')

/** Every mutant of the report, with certify's verdict and its TypeScript line. */
export async function mutantsOf({ report, log, maps }) {
  const stryker = JSON.parse(readFileSync(report, 'utf8'))
  const verdicts = new Map()
  if (existsSync(log)) {
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      if (!line.trim()) continue
      const entry = JSON.parse(line)
      if (entry.mutant !== null) verdicts.set(String(entry.mutant), entry)
    }
  }
  const out = []
  for (const [path, file] of Object.entries(stryker.files)) {
    const ts = path.replace(/^dist\//, '').replace(/\.js$/, '.ts')
    const mapFile = join(maps, path.replace(/^dist\//, '') + '.map')
    const consumer = existsSync(mapFile) ? await new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8'))) : undefined
    for (const m of file.mutants) {
      const { line, column } = m.location.start
      let tsLine
      if (consumer) {
        const at = (bias) => consumer.originalPositionFor({ line, column: column - 1, bias }).line
        tsLine = at(SourceMapConsumer.GREATEST_LOWER_BOUND) ?? at(SourceMapConsumer.LEAST_UPPER_BOUND) ?? undefined
      }
      const verdict = verdicts.get(String(m.id))
      out.push({
        id: String(m.id), file: ts, line: tsLine ?? null, jsLine: line, jsColumn: column,
        mutator: m.mutatorName, original: originalText(file.source, m.location), replacement: m.replacement ?? '',
        stryker: m.status, verdict: verdict?.verdict ?? null, code: verdict?.code ?? null,
        failing: verdict?.failing ?? [], by: verdict?.by, message: verdict?.message, ms: verdict?.ms,
      })
    }
    consumer?.destroy?.()
  }
  return out
}

/**
 * A mutant's status in the summary: `killed` (certify exit 1 naming a clause; `hang` when that
 * clause was charged a hang or livelock), `refused` (certify exit 78 naming why the runtime cannot be
 * installed), `equivalent` (survived and listed), `survived`,
 * `verdict bug` (certify exited otherwise, or Stryker timed it out), `not run`.
 */
export function statusOf(m, equivalents) {
  if (m.verdict === 'killed') return /\(a hang\)|a hang or livelock|livelock\)|runaway livelock/.test(m.message ?? '') ? 'hang' : 'killed'
  if (m.verdict === 'refused') return 'refused'
  if (m.verdict === 'survived') return equivalents.has(equivalenceKey(m)) ? 'equivalent' : 'survived'
  if (m.verdict === 'verdict-bug' || m.stryker === 'Timeout') return 'verdict bug'
  return 'not run'
}

const pct = (n, d) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`)

function tally(mutants, statuses) {
  const t = { total: mutants.length, killed: 0, hang: 0, refused: 0, survived: 0, equivalent: 0, 'verdict bug': 0, 'not run': 0 }
  for (const m of mutants) t[statuses.get(m)]++
  const caught = t.killed + t.hang + t.refused
  return { ...t, score: pct(caught, t.total), scoreNonEquivalent: pct(caught, t.total - t.equivalent) }
}

function row(name, t) {
  return `| ${name} | ${t.total} | ${t.killed} | ${t.hang} | ${t.refused} | ${t.survived} | ${t.equivalent} | ${t['verdict bug']} | ${t['not run']} | **${t.score}** | ${t.scoreNonEquivalent} |`
}

const code = (text) => `\`${clip(collapse(text), 90).replace(/`/g, "'")}\``

/** Read equivalent.json: `[{ file, line, mutator, original, replacement, reason }]`. */
export function loadEquivalents(file = join(here, 'equivalent.json')) {
  const list = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : []
  for (const e of list) {
    if (typeof e.reason !== 'string' || e.reason.trim() === '') throw new Error(`equivalent.json: an entry without a reason: ${JSON.stringify(e)}`)
  }
  return list
}

/** Read kills.json: `[{ check, clause, file, line, mutator, original, replacement }]`, the new checks and the mutant each kills. */
export function loadKills(file = join(here, 'kills.json')) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : []
}

/** The Markdown summary of a run. */
export async function summarize({ report, log, maps, keys, meta, equivalentFile, killsFile }) {
  const list = loadEquivalents(equivalentFile)
  const equivalents = new Map(list.map((e) => [equivalenceKey(e), e]))
  const mutants = (await mutantsOf({ report, log, maps })).filter((m) => keys.some((key) => m.file === `${FILES[key]}.ts`))
  const statuses = new Map(mutants.map((m) => [m, statusOf(m, equivalents)]))
  const byFile = (key) => mutants.filter((m) => m.file === `${FILES[key]}.ts`)
  const present = keys.filter((key) => byFile(key).length > 0)
  const lines = []
  lines.push('# Mutation testing of the reference core, with certify as the only test', '')
  lines.push('Generated by `scripts/mutation/run.mjs` (do not edit by hand; the equivalent mutants are listed in')
  lines.push('`scripts/mutation/equivalent.json`, each with its reason). StrykerJS mutates the compiled reference core')
  lines.push('(`dist/core/...js`) in a fresh clone of the commit; the only test is `dsh-kit certify --profile quick')
  lines.push(`--fail-fast --no-shrink --workers ${meta.certifyWorkers}` + '` on that clone\'s mutated dist (`scripts/mutation/certify-test.mjs`).')
  lines.push('A mutant is **killed** when certify exits 1 naming a failing clause (**hang**: that clause was charged a hang or')
  lines.push('livelock by certify\'s watchdogs; **refused**: certify exited 78 before any case, naming why the runtime cannot')
  lines.push('be installed, as the exit-code table documents); it **survived** when certify exits 0; any other exit, or a StrykerJS')
  lines.push('timeout, is a **verdict bug** of the kit and never counts as killed. Score = (killed + hang + refused) / mutants; the last column')
  lines.push('leaves the listed equivalent mutants out.', '')
  lines.push(`- command: \`${meta.command}\``)
  lines.push(`- commit: \`${meta.commit}\``)
  if (meta.incremental) {
    lines.push(`- incremental (\`--since\`): the mutated sources are those of \`${meta.incremental.since}\`, instrumented there; ${meta.incremental.carried} verdicts of that run are carried over (its kills${meta.incremental.carryEquivalent ? ', and its survivors listed in equivalent.json' : ''}), the other ${meta.incremental.retested} mutants were certified again at this commit`)
  }
  lines.push(`- date: ${meta.date}; run time ${Math.floor(meta.seconds / 60)} min ${meta.seconds % 60} s (clone, install and build included), StrykerJS 10.1.1 under Node ${meta.strykerNode}, certify under Node ${meta.certifyNode}, concurrency ${meta.concurrency}`)
  lines.push('')
  lines.push('| file | mutants | killed | hang | refused | survived | equivalent | verdict bug | not run | score | score without equivalent |')
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
  for (const key of present) lines.push(row(`\`${FILES[key]}.ts\``, tally(byFile(key), statuses)))
  for (const group of GROUPS) {
    const groupKeys = group.keys.filter((k) => present.includes(k))
    if (groupKeys.length === 0) continue
    lines.push(row(`**${group.name}**`, tally(groupKeys.flatMap(byFile), statuses)))
  }
  lines.push(row('**all**', tally(mutants, statuses)))
  lines.push('')
  const sorted = (filter) => mutants.filter(filter).sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || a.jsColumn - b.jsColumn)
  const describe = (m) => `\`${m.file}:${m.line ?? '?'}\` (mutant ${m.id}, js ${m.jsLine}:${m.jsColumn}) ${m.mutator}: ${code(m.original)} → ${code(m.replacement)}`
  const survivors = sorted((m) => statuses.get(m) === 'survived')
  lines.push(`## Survivors (${survivors.length})`, '')
  if (survivors.length === 0) lines.push('None.')
  for (const m of survivors) lines.push(`- ${describe(m)}`)
  lines.push('')
  const bugs = sorted((m) => statuses.get(m) === 'verdict bug' || statuses.get(m) === 'not run')
  lines.push(`## Verdict bugs and mutants not run (${bugs.length})`, '')
  if (bugs.length === 0) lines.push('None: certify exited 0 or 1 (naming a clause) on every mutant, and StrykerJS timed none out.')
  for (const m of bugs) lines.push(`- ${describe(m)}: StrykerJS ${m.stryker}, certify exit ${m.code ?? '-'}`)
  lines.push('')
  const equivalent = sorted((m) => statuses.get(m) === 'equivalent')
  lines.push(`## Equivalent mutants (${equivalent.length})`, '')
  lines.push('Survivors that no test of the contract can tell from the reference, each with the reason (from `equivalent.json`).', '')
  for (const m of equivalent) lines.push(`- ${describe(m)}: ${equivalents.get(equivalenceKey(m)).reason}`)
  const matched = new Set(equivalent.map((m) => equivalenceKey(m)))
  const killedListed = mutants.filter((m) => equivalents.has(equivalenceKey(m)) && (statuses.get(m) === 'killed' || statuses.get(m) === 'hang'))
  const stale = list.filter((e) => !matched.has(equivalenceKey(e)) && present.some((k) => e.file === `${FILES[k]}.ts`) && !killedListed.some((m) => equivalenceKey(m) === equivalenceKey(e)))
  if (killedListed.length > 0) {
    lines.push('', `Listed as equivalent but killed (remove them from equivalent.json): ${killedListed.map((m) => `\`${m.file}:${m.line}\` mutant ${m.id}`).join(', ')}.`)
  }
  if (stale.length > 0) {
    lines.push('', `Listed as equivalent but matching no mutant of this run (the code moved): ${stale.map((e) => `\`${e.file}:${e.line}\` ${e.mutator}`).join(', ')}.`)
  }
  lines.push('')
  const killers = new Map()
  for (const m of mutants) {
    if (!['killed', 'hang', 'refused'].includes(statuses.get(m))) continue
    const clause = m.failing[0] ?? (statuses.get(m) === 'refused' ? 'refused (exit 78)' : '?')
    killers.set(clause, (killers.get(clause) ?? 0) + 1)
  }
  const kills = loadKills(killsFile)
  if (kills.length > 0) {
    lines.push(`## New checks, each proven by the mutant it kills (${kills.length})`, '')
    lines.push('Checks added to kill survivors of the first run (from `kills.json`): the mutant each was written for, and what certify said about it in this run.', '')
    lines.push('| check | clause | mutant | this run |', '| --- | --- | --- | --- |')
    const byKey = new Map(mutants.map((m) => [equivalenceKey(m), m]))
    for (const k of kills) {
      const m = byKey.get(equivalenceKey(k))
      const status = m ? statuses.get(m) : undefined
      const verdict = !m ? 'not in this run' : status === 'killed' || status === 'hang' ? `killed by ${m.failing[0]}${m.failing[0] === k.clause ? '' : ` (not ${k.clause})`}` : `**${status}**`
      lines.push(`| ${k.check} | ${k.clause} | \`${k.file}:${k.line}\` ${k.mutator}: ${code(k.original)} → ${code(k.replacement)}${m ? ` (mutant ${m.id})` : ''} | ${verdict} |`)
    }
    lines.push('')
  }
  lines.push('## What killed them', '')
  lines.push('The first failing clause certify named (with `--fail-fast`), and how many mutants it killed.', '')
  lines.push('| clause | mutants |', '| --- | ---: |')
  for (const [clause, n] of [...killers].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) lines.push(`| ${clause} | ${n} |`)
  lines.push('')
  return lines.join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      work: { type: 'string', default: join(here, '..', '..', '.dsh-kit', 'mutation') },
      results: { type: 'string', default: join(here, 'RESULTS.md') },
      meta: { type: 'string' },
    },
  })
  const work = resolve(values.work)
  const meta = values.meta ? JSON.parse(readFileSync(values.meta, 'utf8')) : JSON.parse(readFileSync(join(work, 'meta.json'), 'utf8'))
  const markdown = await summarize({ report: join(work, 'stryker-report.json'), log: join(work, 'certify-log.jsonl'), maps: join(work, 'maps'), keys: meta.keys ?? Object.keys(FILES), meta })
  writeFileSync(values.results, markdown)
  process.stderr.write(`summarize: wrote ${values.results}\n`)
}
