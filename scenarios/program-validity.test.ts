/**
 * Every program the kit ships names only what it defines (sim/README.md "What a program may name"):
 * the directed programs, the named scenarios, and the programs of the saved run files (regressions,
 * checker fixtures) but the fixtures recorded before the rule, which replays as it ran.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { danglingReferences } from '../sim/program/references.js'
import { readRunFile } from '../sim/trace/run-file.js'
import { SCENARIOS } from './catalog/catalog.js'
import { DIRECTED_PROGRAMS } from '../conformance/programs/directed-programs.js'

/** Saved programs recorded before validation refused what they name: they replay as they ran. */
const RECORDED_BEFORE_THE_RULE: Readonly<Record<string, string>> = {
  'conformance/checkers/fixtures/reference-137-boundary-held-by-its-own-hanging-setup.json': '.actors[0].ops[1].ops[1].owner',
  'conformance/checkers/fixtures/reference-56-resume-with-pending-input-and-a-listener-acting-elsewhere.json': '.env.listeners[0].action.op.session',
  'conformance/checkers/fixtures/reference-156-user-cancel-from-an-abort-observer-after-a-dispose.json': '.env.listeners[0].action.op.session',
}

describe('every shipped program names only what it defines', () => {
  it('directed programs and named scenarios', () => {
    for (const p of DIRECTED_PROGRAMS) expect(danglingReferences(p.program), p.name).toEqual([])
    for (const s of SCENARIOS) expect(danglingReferences(s.program), s.name).toEqual([])
  })

  it('saved run files: regressions and checker fixtures', () => {
    for (const dir of ['scenarios/regressions', 'conformance/checkers/fixtures']) {
      for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
        const path = join(dir, name)
        const dangling = danglingReferences(readRunFile(path).program).map((d) => d.path)
        expect(dangling, path).toEqual(RECORDED_BEFORE_THE_RULE[path] ? [RECORDED_BEFORE_THE_RULE[path]] : [])
      }
    }
  })
})
