// Rerun chosen mutants of a kept mutation run against the current build of the suite, without
// StrykerJS: while a new check is written, "does it kill mutant 63 now?" in seconds.
//
//   npm run build && node scripts/mutation/retest.mjs [--work <dir>] [--survivors | <id>...] [--parallel N]
//
// The lab (<work>/lab) is the worktree's dist/ with the kept instrumented core files of <work>
// (written by run.mjs) laid over it; the core sources must be those the run instrumented. Each
// mutant is run with certify-test.mjs (the same verdict as in the run) and printed with its
// verdict and what killed it.
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { certifyMutants, changedSources, makeLab } from './lab.mjs'
import { loadEquivalents, equivalenceKey, mutantsOf, statusOf } from './summarize.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const kit = resolve(here, '..', '..')
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    work: { type: 'string', default: join(kit, '.dsh-kit', 'mutation') },
    survivors: { type: 'boolean', default: false },
    parallel: { type: 'string', default: '1' },
  },
})
const work = resolve(values.work)
const instrumented = join(work, 'instrumented')
if (!existsSync(instrumented)) {
  process.stderr.write(`retest: no kept run in ${work} (run npm run mutation first)\n`)
  process.exit(64)
}
const { commit } = JSON.parse(readFileSync(join(work, 'meta.json'), 'utf8'))
const changed = changedSources(kit, commit)
if (changed.length > 0) {
  process.stderr.write(`retest: ${changed.join(', ')} changed since the run's commit ${commit.slice(0, 7)}: its instrumentation no longer applies (run npm run mutation again)\n`)
  process.exit(64)
}
const mutants = await mutantsOf({ report: join(instrumented, 'stryker-report.json'), log: join(work, 'certify-log.jsonl'), maps: join(work, 'maps') })
const equivalents = new Map(loadEquivalents().map((e) => [equivalenceKey(e), e]))
const chosen = values.survivors
  ? mutants.filter((m) => statusOf(m, equivalents) === 'survived')
  : positionals.map((id) => mutants.find((m) => m.id === id) ?? (process.stderr.write(`retest: no mutant ${id}\n`), process.exit(64)))

const lab = join(work, 'lab')
makeLab(kit, instrumented, lab, join(here, 'certify-test.mjs'))
const log = join(work, 'retest-log.jsonl')
rmSync(log, { force: true })
const results = await certifyMutants(lab, chosen.map((m) => m.id), { parallel: Number(values.parallel), log })
let killed = 0
for (const m of chosen) {
  const r = results.get(m.id)
  if (r?.verdict === 'killed') killed++
  const what = r?.verdict === 'killed' ? ` by ${r.failing[0]} (${r.by})` : r?.verdict === 'verdict-bug' ? ` exit ${r.code} ${r.signal ?? ''}` : ''
  console.log(`${m.id}\t${m.file}:${m.line}\t${m.mutator}\t${(r?.verdict ?? 'not run').padEnd(11)}${what}\t${r?.ms ?? '-'} ms`)
}
console.log(`retest: ${killed} of ${chosen.length} killed`)
