import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as realSetTimeout } from 'node:timers'
import { describe, expect, it } from 'vitest'
import { installReferenceFactory, ReferenceFactory } from '../../core/index.js'
import type { InstallFactory } from '../../core/process.js'
import { PROBE_PROGRAM, probeHashes } from '../determinism-probe.js'
import type { Program } from '../program/program.js'
import { readRunFile, toRunFile, writeRunFile } from '../trace/run-file.js'
import { runProgram } from '../run.js'
import { dfs, random, replay, ReplayDivergenceError } from '../strategies/index.js'
import type { Strategy } from '../strategies/index.js'

function begun(strategy: Strategy): Strategy {
  strategy.beginRun()
  return strategy
}

describe('world: determinism and replay', () => {
  it('1,000 seeds of the 3-actor probe give identical trace hashes in a second process', async () => {
    const probe = 'dist/sim/determinism-probe.js'
    expect(existsSync(probe), `${probe} is missing: run \`npm run build\` (npm test does)`).toBe(true)
    // The second process runs concurrently with this one's own 1,000 runs.
    const there = promisify(execFile)(process.execPath, [probe, '1000'], { encoding: 'utf8' })
    const here = await probeHashes(1000)
    expect(new Set(here.hashes).size).toBeGreaterThan(50)
    expect((await there).stdout.trim()).toBe(here.combined)
  }, 120_000)

  it('the same seed twice in one process gives byte-identical traces', async () => {
    const a = await runProgram(PROBE_PROGRAM, begun(random({ seed: 7 })))
    const b = await runProgram(PROBE_PROGRAM, begun(random({ seed: 7 })))
    expect(JSON.stringify(b.trace)).toBe(JSON.stringify(a.trace))
  })

  it('a saved run replays from its decision log alone to the identical hash', async () => {
    const original = await runProgram(PROBE_PROGRAM, begun(random({ seed: 11 })))
    const dir = mkdtempSync(join(tmpdir(), 'dsh-run-'))
    const path = join(dir, 'run.json')
    writeRunFile(path, toRunFile(PROBE_PROGRAM, original))
    const file = readRunFile(path)
    const replayed = await runProgram(file.program, begun(replay(file.decisions)))
    expect(replayed.hash).toBe(file.hash)
  })

  it('a decision log edited to stop fitting is refused with the step number', async () => {
    const original = await runProgram(PROBE_PROGRAM, begun(random({ seed: 3 })))
    const decisions = [...original.decisions.decisions]
    const at = decisions.findIndex((d, i) => i > 2 && d.kind === 'pick')
    decisions[at] = { kind: 'pick', label: 'a9:nonsense' }
    const edited = { ...original.decisions, decisions }
    await expect(runProgram(PROBE_PROGRAM, begun(replay(edited)))).rejects.toThrow(new RegExp(`replay diverged at decision ${at}: .*a9:nonsense`))
    await expect(runProgram(PROBE_PROGRAM, begun(replay(edited)))).rejects.toBeInstanceOf(ReplayDivergenceError)
  })

  it('a saved run file with a broken program is refused naming the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-run-'))
    const path = join(dir, 'bad.json')
    writeFileSync(path, JSON.stringify({ v: 1, kind: 'dsh-kit-run', hash: 'x', program: { v: 1, actors: [{ id: 'a', ops: [{ op: 'explode' }] }] }, decisions: { v: 1, strategy: 's', decisions: [] } }))
    expect(() => readRunFile(path)).toThrow(/actors\[0\]\.ops\[0\]\.op: unknown operation "explode"/)
    expect(readFileSync(path, 'utf8')).toContain('explode')
  })
})

describe('world: exhaustive exploration', () => {
  it('dfs on a 2-actor, 3-point program enumerates exactly the interleavings counted by hand', async () => {
    // Actor a has 2 points (one per operation); b has 1. A `pause` is exactly one scheduling point:
    //   a: [a:pause#1, a:pause#2]   b: [b:pause]
    // Interleavings of a sequence of 2 with a sequence of 1: C(3,1) = 3.
    const program: Program = {
      v: 1,
      actors: [
        { id: 'a', ops: [{ op: 'pause' }, { op: 'pause' }] },
        { id: 'b', ops: [{ op: 'pause' }] },
      ],
    }
    const strategy = dfs({ preemptionBound: 10 })
    const seen = new Set<string>()
    while (strategy.beginRun()) {
      const result = await runProgram(program, strategy)
      seen.add(result.decisions.decisions.map((d) => (d.kind === 'pick' ? d.label : d.kind)).join(' '))
    }
    expect([...seen].sort()).toEqual([
      'a:pause a:pause b:pause',
      'a:pause b:pause a:pause',
      'b:pause a:pause a:pause',
    ])
  })
})

describe('world: run outcomes', () => {
  it('a deliberately hanging setup is reported as deadlock naming the setup point, quickly', async () => {
    const program: Program = { v: 1, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 1, hangAt: 1 } }] }] }
    const started = performance.now()
    const result = await runProgram(program, begun(random({ seed: 1 })))
    const elapsed = performance.now() - started
    expect(result.outcome.kind).toBe('deadlock')
    if (result.outcome.kind !== 'deadlock') return
    expect(result.outcome.blocked.map((b) => `${b.actor} ${b.op} ${b.waitingOn}`)).toContain('a1 create(s1) a1:create(s1)@setup.hang')
    expect(elapsed).toBeLessThan(1000)
  })

  it('a real setTimeout inside an implementation is reported as uncontrolled', async () => {
    class TimerFactory extends ReferenceFactory {
      protected override async runSetup(...args: Parameters<ReferenceFactory['runSetup']>) {
        await new Promise((resolve) => realSetTimeout(resolve, 1))
        return super.runSetup(...args)
      }
    }
    const install: InstallFactory = (ctx) => installReferenceFactory(ctx, TimerFactory)
    const program: Program = { v: 1, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }] }] }
    const result = await runProgram(program, begun(random({ seed: 1 })), { install })
    expect(result.outcome.kind).toBe('uncontrolled')
    if (result.outcome.kind === 'uncontrolled') expect(result.outcome.seen).toMatch(/Timeout/)
  })

  it('a run exceeding its step budget is a livelock', async () => {
    const result = await runProgram(PROBE_PROGRAM, begun(random({ seed: 1 })), { budget: 3 })
    expect(result.outcome.kind).toBe('livelock')
  })
})
