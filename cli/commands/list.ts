/**
 * `dsh-kit list`: the clause groups and clauses, the named scenarios and the mutants.
 * @module
 */
import { CLAUSES, GROUPS } from '../../conformance/clauses.js'
import { MUTANTS } from '../../conformance/mutants/index.js'
import { SCENARIOS } from '../../scenarios/index.js'
import { EXIT } from '../exit-codes.js'
import { parseOptions } from '../options.js'

export function listCommand(args: string[]): number {
  parseOptions('list', args, {})
  for (const group of GROUPS) {
    const clauses = CLAUSES.filter((c) => c.group === group)
    console.log(`${group} (${clauses.length})`)
    for (const c of clauses) console.log(`  ${String(c.clause).padStart(3)}  ${c.title}`)
  }
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
