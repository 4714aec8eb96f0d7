#!/usr/bin/env node
// Measures the mutant gallery under `dsh-kit fuzz --time <budget>` with the real CLI, one mutant
// after another, and prints the table of scenarios/README.md. Run after `npm run build`:
//
//   node scenarios/measure-gallery.mjs [--time 30s] [--seed 1] [--out /tmp/gallery] [--only m31,a5] [-- <more fuzz options>]
//
// ("first found" is the run count at the first failure and the kind of program that found it:
// `random`/`swarm` a fresh program, `guided` a corpus mutant, `scenario` a named scenario.)
// Each mutant's JSON report and shrunk run file land under --out; copy a run file to
// scenarios/regressions/<mutant>.json to add it to the regression corpus.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const { values, positionals } = parseArgs({ options: { time: { type: 'string', default: '30s' }, seed: { type: 'string' }, out: { type: 'string', default: '/tmp/gallery' }, only: { type: 'string' } }, allowPositionals: true })
const extra = [...(values.seed === undefined ? [] : ['--seed', values.seed]), ...positionals]
const only = values.only ? values.only.split(',') : undefined
const mutants = readdirSync('conformance/mutants').filter((f) => /^[am]\d+-.*\.ts$/.test(f) && !f.endsWith('.test.ts')).sort()
  .filter((f) => !only || only.some((o) => f.startsWith(`${o}-`)))
mkdirSync(values.out, { recursive: true })

const rows = []
for (const file of mutants) {
  const name = file.replace(/\.ts$/, '')
  const json = join(values.out, `${name}.json`)
  const started = Date.now()
  const run = spawnSync(process.execPath, ['dist/cli/main.js', 'fuzz', '--adapter', `conformance/mutants/${file}`, '--time', values.time, '--json', json, '--out', join(values.out, name), ...extra], { encoding: 'utf8' })
  const wall = (Date.now() - started) / 1000
  if (!existsSync(json)) {
    rows.push(`| ${name} | error (exit ${run.status}): ${run.stderr.trim().split('\n').at(-1)} | — | — | — | — |`)
    continue
  }
  const report = JSON.parse(readFileSync(json, 'utf8'))
  const f = report.failures?.[0]
  const label = name.split('-')[0].toUpperCase()
  if (!f) rows.push(`| ${label} | not found (${report.runs} runs) | — | — | — | — |`)
  else {
    const b = f.before
    const a = f.after
    const kind = String(f.originalProgram?.name ?? '?').split(' ')[0]
    rows.push(`| ${label} | ${f.key} · seed ${f.runSeed} · ${wall.toFixed(1)} s | run ${f.run + 1} · ${kind} | ${b.operations} → ${a.operations} | ${b.decisions} → ${a.decisions} | ${b.preemptions} → ${a.preemptions} |`)
  }
  console.error(rows.at(-1))
}
console.log(`| mutant | \`fuzz --time ${values.time}${extra.length ? ` ${extra.join(' ')}` : ''}\`: violation · run seed · wall time | first found | operations | decisions | preemptions |`)
console.log('| --- | --- | --- | --- | --- | --- |')
for (const row of rows) console.log(row)
