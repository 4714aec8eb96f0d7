// The mutant lab: a kit build with a kept run's instrumented core files laid over it, where any
// mutant of that run can be switched on by its id (__STRYKER_ACTIVE_MUTANT__) and certified with
// certify-test.mjs, as StrykerJS does, without re-instrumenting. Used by retest.mjs and by
// `run.mjs --since` (survivors of an earlier run retested against a newer suite).
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { FILES } from './summarize.mjs'

/**
 * Lay out a lab in `lab`: `kitRoot`'s dist/, package.json, docs/ and node_modules (linked), with
 * the instrumented files of `instrumented` (a kept run's) over its dist. The TypeScript sources of
 * the mutated files must be those the run instrumented (`sourcesMatch` checks that).
 */
export function makeLab(kitRoot, instrumented, lab, certifyTest) {
  rmSync(lab, { recursive: true, force: true })
  mkdirSync(join(lab, 'scripts', 'mutation'), { recursive: true })
  cpSync(join(kitRoot, 'dist'), join(lab, 'dist'), { recursive: true })
  cpSync(join(instrumented, 'dist'), join(lab, 'dist'), { recursive: true })
  cpSync(join(kitRoot, 'package.json'), join(lab, 'package.json'))
  if (existsSync(join(kitRoot, 'docs'))) cpSync(join(kitRoot, 'docs'), join(lab, 'docs'), { recursive: true })
  cpSync(certifyTest, join(lab, 'scripts', 'mutation', 'certify-test.mjs'))
  symlinkSync(join(kitRoot, 'node_modules'), join(lab, 'node_modules'))
}

/**
 * The mutated TypeScript files whose content differs between commit `from` of `repo` and commit
 * `to` (the working tree when omitted). None: the instrumentation of `from` still applies.
 */
export function changedSources(repo, from, to) {
  const paths = Object.values(FILES).map((f) => `${f}.ts`)
  const diff = spawnSync('git', ['-C', repo, 'diff', '--name-only', from, ...(to ? [to] : []), '--', ...paths], { encoding: 'utf8' })
  if (diff.status !== 0) throw new Error(`git diff ${from} ${to ?? '(working tree)'} failed: ${diff.stderr}`)
  return diff.stdout.split('\n').filter(Boolean)
}

/**
 * Certify each mutant (by id) in `lab`, `parallel` at a time; each run appends its verdict to
 * `log` (certify-test.mjs's JSON lines). Resolves with the log's entries by mutant id.
 */
export async function certifyMutants(lab, ids, { parallel = 1, log, workers = '1', onDone } = {}) {
  let next = 0
  let done = 0
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < ids.length) {
      const id = ids[next++]
      await new Promise((resolve) => {
        const child = spawn('node', ['scripts/mutation/certify-test.mjs'], {
          cwd: lab, stdio: 'ignore',
          env: { ...process.env, __STRYKER_ACTIVE_MUTANT__: id, DSH_MUTATION_LOG: log, DSH_MUTATION_CERTIFY_WORKERS: workers },
        })
        child.on('close', resolve)
      })
      onDone?.(++done, ids.length)
    }
  }))
  const entries = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []
  return new Map(entries.map((e) => [String(e.mutant), e]))
}
