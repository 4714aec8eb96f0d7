/**
 * `dsh-kit list`: the clause groups and clauses, the named scenarios and the mutants; with
 * `--clause`, one clause's text, the contract sections it rests on and how the suite checks it.
 * @module
 */
import { join, relative } from 'node:path'
import { findClause, formatClauseEntry } from '../../conformance/clauses/clause-reference.js'
import { CLAUSES, GROUPS } from '../../conformance/clauses/clauses.js'
import { MUTANTS } from '../../conformance/mutants/index.js'
import { SCENARIOS } from '../../scenarios/index.js'
import { KIT_ROOT } from '../adapter-loader.js'
import { UsageError } from '../errors.js'
import { EXIT } from '../exit-codes.js'
import { parseOptions } from '../options.js'

export function listCommand(args: string[]): number {
  const { values } = parseOptions('list', args, { clause: { type: 'string', multiple: true } })
  if (values.clause) {
    // Where this installation's copy of the reference is, as the user would open it from here.
    const abs = join(KIT_ROOT, 'docs', 'clauses.md')
    const doc = relative(process.cwd(), abs).startsWith('..') ? abs : relative(process.cwd(), abs)
    const entries = values.clause.map((entry) => {
      try {
        return formatClauseEntry(findClause(entry), doc)
      } catch (error) {
        throw new UsageError(`list --clause: ${(error as Error).message}`)
      }
    })
    console.log(entries.join('\n\n'))
    return EXIT.ok
  }
  for (const group of GROUPS) {
    const clauses = CLAUSES.filter((c) => c.group === group)
    console.log(`${group} (${clauses.length})`)
    for (const c of clauses) console.log(`  ${String(c.clause).padStart(3)}  ${c.title}`)
  }
  console.log('')
  console.log('one clause, with the contract sections it rests on and how it is checked: dsh-kit list --clause "<GROUP> <n>"')
  console.log('')
  console.log(`scenarios (${SCENARIOS.length}): dsh-kit fuzz --scenario <name>`)
  const width = Math.max(...SCENARIOS.map((sc) => sc.name.length))
  for (const sc of SCENARIOS) {
    console.log(`  ${sc.name.padEnd(width)}  ${sc.title}`)
    console.log(`  ${''.padEnd(width)}  aims at ${sc.groups.join(', ')}; goals: ${sc.goals.map((g) => g.name).join(', ')}${sc.expectDeadlock ? ' (deadlocks expected)' : ''}`)
  }
  console.log('')
  console.log(`mutants (${MUTANTS.length}): dsh-kit fuzz --adapter conformance/mutants/<file>`)
  const fileWidth = Math.max(...MUTANTS.map((m) => m.file.length))
  for (const m of MUTANTS) console.log(`  ${m.file.padEnd(fileWidth)}  ${m.adapter.reproduces ?? m.catalog}`)
  return EXIT.ok
}
