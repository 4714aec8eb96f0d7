// Mutation testing of the reference core with certify as the only test (run by run.sh under Node 22).
//
//   npm run mutation [-- --files factory,agent,...] [--concurrency N] [--certify-workers N]
//                       [--work <dir>] [--results <file>] [--since <dir of an earlier run>]
//
// 1. clones HEAD into <work>/clone (default .dsh-kit/mutation/clone, git-ignored), npm ci, build;
// 2. runs StrykerJS there over the compiled files of the reference core (dist/core/...js, so no
//    rebuild per mutant) with the command runner: scripts/mutation/certify-test.mjs, which runs
//    `certify --profile quick --fail-fast --no-shrink` on the sandbox's own (mutated) dist;
// 3. writes the summary (score per file, survivors with their TypeScript line, the equivalent
//    mutants of equivalent.json, verdict bugs) with the command and commit into --results
//    (default scripts/mutation/RESULTS.md), and keeps the instrumented files for retest.mjs.
//
// --since <dir>: incremental. The mutated sources must be unchanged since that run's commit; its
// instrumented files are laid over this clone's build (lab.mjs) and every mutant it did not kill
// (survivors, listed equivalents, verdict bugs) is certified again against this commit's suite;
// its kills are carried over (a kill is a clause that fails; checks are only ever added). With
// --carry-equivalent the survivors listed in equivalent.json keep their verdict too (faster; said so
// in the summary). --files narrows the run to some of the earlier run's files.
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { certifyMutants, changedSources, makeLab } from './lab.mjs'
import { equivalenceKey, FILES, loadEquivalents, mutantsOf, summarize } from './summarize.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const kit = resolve(here, '..', '..')
const { values } = parseArgs({
  options: {
    files: { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    'certify-workers': { type: 'string', default: '1' },
    work: { type: 'string', default: join(kit, '.dsh-kit', 'mutation') },
    results: { type: 'string', default: join(here, 'RESULTS.md') },
    since: { type: 'string' },
    'carry-equivalent': { type: 'boolean', default: false },
  },
})
const since = values.since ? resolve(values.since) : undefined
const previous = since ? JSON.parse(readFileSync(join(since, 'meta.json'), 'utf8')) : undefined
const keys = values.files ? values.files.split(',').map((s) => s.trim()).filter(Boolean) : previous ? previous.keys : Object.keys(FILES)
for (const key of keys) {
  if (!(key in FILES)) fail(`--files: unknown file "${key}"; one of ${Object.keys(FILES).join(', ')}`)
  if (previous && !previous.keys.includes(key)) fail(`--files: "${key}" was not mutated by the --since run`)
}
for (const name of ['concurrency', 'certify-workers']) {
  if (!/^[1-9]\d*$/.test(values[name])) fail(`--${name} must be a positive integer, got "${values[name]}"`)
}

function fail(message) {
  process.stderr.write(`mutation: ${message}\n`)
  process.exit(64)
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options })
  if (result.status !== 0) {
    process.stderr.write(`mutation: ${command} ${args.join(' ')} failed (${result.status ?? result.signal})\n`)
    process.exit(1)
  }
  return result
}

const git = (...args) => spawnSync('git', ['-C', kit, ...args], { encoding: 'utf8' }).stdout.trim()
const commit = git('rev-parse', 'HEAD')
const dirty = git('status', '--porcelain', '--untracked-files=no') !== ''
if (dirty) process.stderr.write('mutation: the working tree has uncommitted changes; the clone tests the commit, without them\n')

const work = resolve(values.work)
if (since === work) fail('--since names the --work directory itself; give this run another --work')
if (previous) {
  const changed = changedSources(kit, previous.commit, commit)
  if (changed.length > 0) fail(`--since: ${changed.join(', ')} changed since ${previous.commit.slice(0, 7)}; the earlier instrumentation no longer applies (run without --since)`)
}
const clone = join(work, 'clone')
const started = Date.now()
rmSync(clone, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
process.stderr.write(`mutation: cloning ${commit.slice(0, 7)} into ${clone}\n`)
run('git', ['clone', '--quiet', '--no-checkout', kit, clone])
run('git', ['-C', clone, 'checkout', '--quiet', '--detach', commit])
run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: clone })
run('npm', ['run', 'build', '--silent'], { cwd: clone })
// The same sources with source maps, apart: survivors are reported at their TypeScript line.
const maps = join(work, 'maps')
rmSync(maps, { recursive: true, force: true })
run(join(clone, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', '--sourceMap', '--outDir', maps], { cwd: clone })

const log = join(work, 'certify-log.jsonl')
rmSync(log, { force: true })
const reportFile = join(work, 'stryker-report.json')
const instrumented = join(work, 'instrumented')
const certifyWorkers = values['certify-workers']
let incremental
if (previous) {
  if (resolve(since, 'instrumented') !== instrumented) {
    rmSync(instrumented, { recursive: true, force: true })
    cpSync(join(since, 'instrumented'), instrumented, { recursive: true })
  }
  cpSync(join(since, 'stryker-report.json'), reportFile)
  const before = await mutantsOf({ report: reportFile, log: join(since, 'certify-log.jsonl'), maps })
  writeFileSync(log, readFileSync(join(since, 'certify-log.jsonl')))
  const inFiles = (m) => keys.some((key) => m.file === `${FILES[key]}.ts`)
  const listed = new Set(loadEquivalents().map(equivalenceKey))
  // --carry-equivalent: a survivor listed in equivalent.json keeps its verdict instead of being certified again.
  const carried = (m) => m.verdict === 'killed' || (values['carry-equivalent'] && m.verdict === 'survived' && listed.has(equivalenceKey(m)))
  const retest = before.filter((m) => inFiles(m) && !carried(m)).map((m) => m.id)
  const carriedCount = before.filter((m) => inFiles(m) && carried(m)).length
  process.stderr.write(`mutation: ${carriedCount} verdicts of ${previous.commit.slice(0, 7)} carried over; certifying the other ${retest.length} again\n`)
  const lab = join(work, 'lab')
  makeLab(clone, instrumented, lab, join(here, 'certify-test.mjs'))
  await certifyMutants(lab, retest, {
    parallel: Number(values.concurrency), log, workers: certifyWorkers,
    onDone: (done, total) => { if (done % 10 === 0 || done === total) process.stderr.write(`mutation: ${done}/${total} retested\n`) },
  })
  incremental = { since: previous.commit, carried: carriedCount, retested: retest.length, carryEquivalent: values['carry-equivalent'] }
} else {
  await runStryker()
}
const seconds = Math.round((Date.now() - started) / 1000)
const nodeVersion = spawnSync('node', ['--version'], { encoding: 'utf8' }).stdout.trim()
const args = process.argv.slice(2)
const meta = {
  command: `npm run mutation${args.length ? ` -- ${args.join(' ')}` : ''}`, keys,
  ...(incremental ? { incremental } : {}),
  commit, seconds, concurrency: Number(values.concurrency), certifyWorkers: Number(certifyWorkers),
  strykerNode: process.version, certifyNode: nodeVersion, date: new Date().toISOString().slice(0, 10),
}
writeFileSync(join(work, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`)
const markdown = await summarize({ report: reportFile, log, maps, keys, meta })
writeFileSync(values.results, markdown)
process.stderr.write(`mutation: wrote ${relative(process.cwd(), values.results)} in ${seconds} s\n`)

/** StrykerJS over the clone: the report, the certify log and the kept instrumented files. */
async function runStryker() {
  const config = {
    testRunner: 'command',
    commandRunner: { command: 'node scripts/mutation/certify-test.mjs' },
    coverageAnalysis: 'off',
    plugins: [],
    checkers: [],
    mutate: keys.map((key) => `dist/${FILES[key]}.js`),
    // TypeScript 7 has no JS API: keep Stryker away from the project's tsconfig (we mutate JS).
    tsconfigFile: 'scripts/mutation/no-tsconfig.json',
    disableTypeChecks: false,
    concurrency: Number(values.concurrency),
    // certify's own watchdogs (10 s per case or run) must charge a hang to a clause before Stryker
    // gives up on the run: a Stryker timeout is a verdict bug, never a kill.
    timeoutMS: 180_000,
    timeoutFactor: 3,
    reporters: ['json', 'progress'],
    jsonReporter: { fileName: reportFile },
    ignorePatterns: ['/adapters', '/.dsh-kit'],
    tempDirName: '.stryker-tmp',
    cleanTempDir: false,
  }
  const configFile = join(work, 'stryker.config.json')
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`)

  const stryker = join(here, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js')
  process.stderr.write(`mutation: StrykerJS over ${keys.join(', ')} (concurrency ${values.concurrency}, certify --workers ${certifyWorkers})\n`)
  const strykerLog = createWriteStream(join(work, 'stryker.log'))
  const code = await new Promise((resolveRun) => {
    const child = spawn(process.execPath, [stryker, 'run', configFile], {
      cwd: clone,
      env: { ...process.env, DSH_MUTATION_LOG: log, DSH_MUTATION_CERTIFY_WORKERS: certifyWorkers },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => { process.stderr.write(chunk); strykerLog.write(chunk) })
    }
    child.on('close', (status) => resolveRun(status))
  })
  strykerLog.end()
  if (code !== 0 || !existsSync(reportFile)) {
    process.stderr.write(`mutation: StrykerJS exited ${code}; see ${join(work, 'stryker.log')}\n`)
    process.exit(1)
  }
  // Keep the instrumented files: retest.mjs reruns chosen mutants against a newer build of the suite.
  const sandboxes = readdirSync(join(clone, '.stryker-tmp')).filter((d) => d.startsWith('sandbox'))
  rmSync(instrumented, { recursive: true, force: true })
  for (const key of keys) {
    const rel = `dist/${FILES[key]}.js`
    const from = join(clone, '.stryker-tmp', sandboxes[0], rel)
    mkdirSync(dirname(join(instrumented, rel)), { recursive: true })
    cpSync(from, join(instrumented, rel))
  }
  cpSync(reportFile, join(instrumented, 'stryker-report.json'))
}
