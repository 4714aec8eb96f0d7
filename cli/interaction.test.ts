/**
 * The interaction mode through the built CLI: `fuzz --interaction` finds the bug of the example as
 * it stood (f00) with no program aimed at it, shows seeds and an ETA, resumes exactly from a
 * checkpoint, refuses another campaign's checkpoint, and its shards merge into the unsharded
 * campaign's interaction coverage.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dshKit } from './child-cli.test-helper.js'
import { EXIT } from './exit-codes.js'

const F00 = 'conformance/mutants/from-scratch/f00-turn-after-dispose-began.ts'

/** A campaign report without the fields that say how long it took or where it wrote. */
function comparable(path: string, dir: string): unknown {
  const report = JSON.parse(readFileSync(path, 'utf8'))
  delete report.durationMs
  return JSON.parse(JSON.stringify(report).split(dir).join('<out>'))
}

describe('fuzz --interaction', () => {
  it('finds f00\'s AGENT-TEARDOWN-TEST 107 from a cold start, printing seeds done of the stream and an ETA', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-interaction-'))
    const run = await dshKit(['fuzz', '--adapter', F00, '--interaction', '--workers', '1', '--out', dir, '--json', join(dir, 'r.json')])
    expect(run.code, run.stderr).toBe(EXIT.violation)
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))
    expect(report.failures[0].key).toBe('AGENT-TEARDOWN-TEST 107')
    expect(report.failures[0].runSeed).toBeLessThan(16)
    expect(report.interactions).toBe('only')
    expect(run.stdout).toMatch(/the interaction suite: small programs, each under its bounded schedules/)
    expect(run.stdout).toMatch(/rerun: {3}npx dsh-kit fuzz --adapter \S+ --strategy portfolio --seed \d+ --runs 1 --interaction/)
    expect(run.stderr).toMatch(/seeds \d+\/\d+ \(\d+%\), ETA \d/)
  }, 120_000)

  it('resumes from a checkpoint exactly, refuses another campaign\'s, and merges shards into the unsharded coverage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-interaction-'))
    const checkpoint = join(dir, 'c.json')
    const base = ['fuzz', '--interaction', '--seed', '40', '--workers', '1', '--out', join(dir, 'o')]
    const first = await dshKit([...base, '--runs', '6', '--checkpoint', checkpoint, '--json', join(dir, 'first.json')])
    expect(first.code, first.stderr).toBe(EXIT.ok)
    const resumed = await dshKit([...base, '--runs', '12', '--checkpoint', checkpoint, '--json', join(dir, 'resumed.json')])
    expect(resumed.code, resumed.stderr).toBe(EXIT.ok)
    expect(resumed.stderr).toMatch(/resuming from \S+ \(6 seeds\)/)
    const whole = await dshKit([...base, '--runs', '12', '--json', join(dir, 'whole.json')])
    expect(whole.code).toBe(EXIT.ok)
    expect(comparable(join(dir, 'resumed.json'), dir)).toEqual(comparable(join(dir, 'whole.json'), dir))

    const other = await dshKit(['fuzz', '--interaction', '--seed', '41', '--runs', '12', '--workers', '1', '--checkpoint', checkpoint])
    expect(other.code).toBe(EXIT.usage)
    expect(other.stderr).toMatch(/the checkpoint is of another campaign/)
    const guided = await dshKit(['fuzz', '--runs', '2', '--checkpoint', join(dir, 'g.json')])
    expect(guided.code).toBe(EXIT.usage)
    expect(guided.stderr).toMatch(/a checkpoint needs a campaign whose programs are functions of their seeds/)

    for (const i of [1, 2]) {
      const shard = await dshKit([...base, '--runs', '6', '--shard', `${i}/2`, '--json', join(dir, `s${i}.json`)])
      expect(shard.code, shard.stderr).toBe(EXIT.ok)
    }
    const merge = await dshKit(['merge', join(dir, 's1.json'), join(dir, 's2.json'), '--json', join(dir, 'merged.json')])
    expect(merge.code, merge.stderr).toBe(EXIT.ok)
    const merged = JSON.parse(readFileSync(join(dir, 'merged.json'), 'utf8'))
    const unsharded = JSON.parse(readFileSync(join(dir, 'whole.json'), 'utf8'))
    for (const field of ['runs', 'seeds', 'interactionCoverage', 'interactionsExercised', 'interactions']) expect(merged[field], field).toEqual(unsharded[field])
    expect(merge.stdout).toMatch(/^interaction coverage \(one session: /m)
  }, 240_000)
})
