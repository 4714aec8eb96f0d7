/**
 * What the kit finds of the from-scratch gallery today, through the built CLI as a user runs it:
 * each mutant `certify --profile quick` catches is caught again (rerun on the clause that caught it,
 * `--only … --fail-fast`, so the file stays quick), each mutant only a fuzz campaign found replays
 * its saved finding (`regressions/`), and each mutant nothing finds is a todo with its reason. The
 * measurement itself (`bench/from-scratch-gallery.ts`) is in `README.md`; when the kit learns to find
 * a mutant, move it from `NOT_FOUND` or `FOUND_BY_FUZZ` to the list above it.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { findScratchMutant, modulePath, SCRATCH_MUTANTS } from './index.js'

const exec = promisify(execFile)
const HERE = dirname(fileURLToPath(import.meta.url))
const KIT_ROOT = join(HERE, '..', '..', '..')
const CLI = join(KIT_ROOT, 'dist', 'cli', 'main.js')

/** Mutants `certify --profile quick` catches, with a clause it fails them on (the expected one where it is among them). */
const CAUGHT_BY_QUICK: Readonly<Record<string, string>> = {
  f01: 'AGENT-PREPARE-PUBLISH 60',
  f02: 'AGENT-ATOMIC-TEST 67',
  f04: 'AGENT-TEARDOWN-TEST 95',
  f05: 'AGENT-PREPARE-PUBLISH 57', // 65, the expected clause, fails too, but only in simulated runs late in the plan
  f06: 'AGENT-ATOMIC-TEST 63',
  f07: 'AGENT-TEARDOWN-TEST 97',
  f08: 'AGENT-TEARDOWN-TEST 98',
  f09: 'AGENT-TEARDOWN-TEST 110',
  f10: 'AGENT-INBOX-TEST 126',
  f11: 'AGENT-INBOX-TEST 118',
  f13: 'AGENT-CREATE-RESUME 54',
  f14: 'AGENT-INBOX-REPLAY 116',
  f15: 'X-CANCEL 146',
  f16: 'AGENT-TEARDOWN-TEST 107',
  f17: 'X-CANCEL 149',
  f18: 'X-CANCEL 155',
  f19: 'AGENT-RUNTIME-SCOPE 27',
  f20: 'AGENT-RUNTIME-SCOPE 31',
  f21: 'AGENT-INITIATOR-DRAIN 141',
  f22: 'AGENT-CREATE-RESUME 50',
}

/**
 * Mutants `certify --profile quick` misses, with the shrunk run file that `certify --profile thorough`
 * or `fuzz --time 120s --seed 1` saved, and its clause.
 */
const FOUND_BY_FUZZ: Readonly<Record<string, { readonly file: string; readonly clause: string }>> = {
  f03: { file: 'regressions/f03-signal-dropped-after-setup.json', clause: 'AGENT-PREPARE-PUBLISH 61' },
  // (thorough's interaction program: a throwing agent/inbox/discarded listener while a cancel clears)
  f12: { file: 'regressions/f12-discarded-not-contained.json', clause: 'AGENT-INBOX-TEST 125' },
}

/** Mutants nothing found yet, and the shape of program that shows the bug. */
const NOT_FOUND: Readonly<Record<string, string>> = {
  f00: 'a dispose() from a session/event observer of the first turn/end while a second followup is pending '
    + '(examples/from-scratch-factory/regressions/turn-after-dispose.mjs); quick, thorough and fuzz seeds 1-3 (120 s each) miss it',
}

async function cli(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  return exec(process.execPath, [CLI, ...args], { cwd: KIT_ROOT, maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  )
}

describe('conformance/mutants/from-scratch (built CLI)', () => {
  it('files every mutant of the gallery under exactly one verdict', () => {
    const filed = [...Object.keys(CAUGHT_BY_QUICK), ...Object.keys(FOUND_BY_FUZZ), ...Object.keys(NOT_FOUND)]
    expect([...filed].sort()).toEqual(SCRATCH_MUTANTS.map((m) => m.id).sort())
  })

  describe.concurrent('caught by certify --profile quick', () => {
    for (const [id, clause] of Object.entries(CAUGHT_BY_QUICK)) {
      const m = findScratchMutant(id)
      it(`${id} ${m.name}: certify --only "${clause}" fails it`, async () => {
        const out = mkdtempSync(join(tmpdir(), 'dsh-scratch-gallery-'))
        const run = await cli(['certify', '--adapter', modulePath(m), '--only', clause, '--fail-fast', '--no-shrink', '--workers', '1', '--out', out])
        expect(run.stdout).toContain(`${clause} violated`)
        expect(run.code, run.stdout).toBe(1)
      }, 120_000)
    }
  })

  describe.concurrent('found only by a fuzz campaign: its saved finding replays', () => {
    for (const [id, { file, clause }] of Object.entries(FOUND_BY_FUZZ)) {
      const m = findScratchMutant(id)
      it(`${id} ${m.name}: dsh-kit replay ${file} reproduces ${clause}`, async () => {
        const run = await cli(['replay', join('conformance/mutants/from-scratch', file), '--adapter', modulePath(m)])
        expect(run.stdout).toContain(clause)
        expect(run.stdout).toMatch(/reproduced/)
        expect(run.code, run.stdout).toBe(1)
      }, 60_000)
    }
  })

  describe('found by nothing yet', () => {
    for (const [id, reason] of Object.entries(NOT_FOUND)) it.todo(`${id} ${findScratchMutant(id).name}: ${reason}`)
  })
})
