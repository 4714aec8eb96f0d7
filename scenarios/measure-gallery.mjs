#!/usr/bin/env node
// Measures the mutant gallery under `dsh-kit fuzz --time <budget>` with the real CLI, one mutant
// after another, and prints the table of scenarios/README.md. Run after `npm run build`:
//
//   node scenarios/measure-gallery.mjs [--time 30s] [--out /tmp/gallery] [--only m31,a5]
//
// Each mutant's JSON report and shrunk run file land under --out; copy a run file to
// scenarios/regressions/<mutant>.json to add it to the regression corpus.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { time: { type: 'string', default: '30s' }, out: { type: 'string', default: '/tmp/gallery' }, only: { type: 'string' } } })
const only = values.only ? values.only.split(',') : undefined
const mutants = readdirSync('conformance/mutants').filter((f) => /^[am]\d+-.*\.ts$/.test(f) && !f.endsWith('.test.ts')).sort()
  .filter((f) => !only || only.some((o) => f.startsWith(`${o}-`)))
mkdirSync(values.out, { recursive: true })

const rows = []
for (const file of mutants) {
  const name = file.replace(/\.ts$/, '')
  const json = join(values.out, `${name}.json`)
  const started = Date.now()
  const run = spawnSync(process.execPath, ['dist/cli/main.js', 'fuzz', '--adapter', `conformance/mutants/${file}`, '--time', values.time, '--json', json, '--out', join(values.out, name)], { encoding: 'utf8' })
  const wall = (Date.now() - started) / 1000
  if (!existsSync(json)) {
    rows.push(`| ${name} | error (exit ${run.status}): ${run.stderr.trim().split('\n').at(-1)} | — | — | — |`)
    continue
  }
  const report = JSON.parse(readFileSync(json, 'utf8'))
  const f = report.failures?.[0]
  const label = name.split('-')[0].toUpperCase()
  if (!f) rows.push(`| ${label} | not found (${report.runs} runs) | — | — | — |`)
  else {
    const b = f.before
    const a = f.after
    rows.push(`| ${label} | ${f.key} · seed ${f.runSeed} · ${wall.toFixed(1)} s | ${b.operations} → ${a.operations} | ${b.decisions} → ${a.decisions} | ${b.preemptions} → ${a.preemptions} |`)
  }
  console.error(rows.at(-1))
}
console.log('| mutant | `fuzz --time 30s`: violation · run seed · wall time | operations | decisions | preemptions |')
console.log('| --- | --- | --- | --- | --- |')
for (const row of rows) console.log(row)
