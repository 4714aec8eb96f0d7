import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { KIT_ROOT } from './adapter-loader.js'

const exec = promisify(execFile)
const CLI = join(KIT_ROOT, 'dist', 'cli', 'main.js')
const M01 = 'conformance/mutants/m01-setup-after-publish.ts'

async function dshKit(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [CLI, ...args], { cwd: KIT_ROOT, maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

describe('dsh-kit fuzz, replay, explain, list', () => {
  it('fuzz finds a mutant, exits 1 and prints a replay command that reproduces it; explain shows it by lane and as HTML', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-fuzz-'))
    const fuzz = await dshKit(['fuzz', '--adapter', M01, '--runs', '20', '--out', dir])
    expect(fuzz.code).toBe(1)
    expect(fuzz.stdout).toContain('AGENT-SETUP-CONTRACT 36 violated:')
    expect(fuzz.stdout).toMatch(/shrunk in \d+ runs: operations \d+ → 1/)
    expect(fuzz.stderr).toMatch(/fuzz +\d+ runs +[\d.]+ runs\/s +failures: \d/)
    const file = /replay: {2}npx dsh-kit replay (\S+)/.exec(fuzz.stdout)?.[1]
    expect(file).toBeDefined()

    const replay = await dshKit(['replay', file!])
    expect(replay.code).toBe(1)
    expect(replay.stdout).toContain('reproduced: AGENT-SETUP-CONTRACT 36')
    expect(replay.stdout).not.toContain('different trace')

    const explain = await dshKit(['explain', file!])
    expect(explain.code).toBe(0)
    const [header, ...rows] = explain.stdout.split('\n')
    // The shrunk program has one actor; then the pseudo-actor lanes.
    expect(header!.trim().split(/\s+/)).toEqual([expect.stringMatching(/^a\d$/), 'inline', 'listener', 'model', 'factory', 'env'])
    expect(rows.some((r) => /^#\d{4} d\d{3} w0 +: +: +: +: +\* +: +event session\/created s\d .*<== AGENT-SETUP-CONTRACT 36/.test(r))).toBe(true)

    const html = join(dir, 'explain.html')
    const page = await dshKit(['explain', file!, '--html', html])
    expect(page.code).toBe(0)
    const text = readFileSync(html, 'utf8')
    expect(text).toMatch(/^<!doctype html>/)
    expect(text).toMatch(/<tr id="e\d+" class="event violation" title="[^"]*registry: agents=\[s\d\]/)
    expect(text).not.toMatch(/src="http|href="http|<link/)
  }, 60_000)

  it('fuzz on the reference passes, writes a JSON report and lists coverage; a scenario lists its goals', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-fuzz-'))
    const json = join(dir, 'report.json')
    const run = await dshKit(['fuzz', '--runs', '8', '--seed', '100', '--shard', '2/3', '--json', json])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/shard 2\/3/)
    const report = JSON.parse(readFileSync(json, 'utf8'))
    // Seed 101 (100 + 1, shard 2/3) is an interaction seed (r mod 16 = 5): its program runs under several schedules.
    expect(report).toMatchObject({ passed: true, seeds: 8, seed: 100, shard: { index: 2, count: 3 }, mode: 'programs', guidance: 'on', interactions: 'mix' })
    expect(report.runs).toBeGreaterThan(8)
    expect(run.stdout).toMatch(new RegExp(`^PASSED: no violation in ${report.runs} runs$`, 'm'))
    expect(report.interactionCoverage.map((l: { t: number }) => l.t)).toEqual([2, 3])
    expect(run.stdout).toMatch(/^interaction coverage \(one session: .*\): 2-way \d+\/\d+ \([\d.]+%\), 3-way \d+\/\d+ \([\d.]+%\)$/m)
    expect(run.stdout).toMatch(new RegExp(`^state coverage: ${report.stateCoverage.transitions} abstract transitions \\(\\d+ at 10%, \\d+ at 50%, ${report.stateCoverage.transitions} at 100% of the runs\\); corpus \\d+ programs, 0 seeds ran a mutant of one$`, 'm'))
    expect(typeof report.durationMs).toBe('number')

    const scenario = await dshKit(['fuzz', '--scenario', 'same-id-two-creates', '--runs', '3'])
    expect(scenario.code).toBe(0)
    expect(scenario.stdout).toMatch(/^goals: \d+\/4 reached/m)
  }, 60_000)

  it('refuses bad options with usage errors', async () => {
    for (const [args, message] of [
      [['fuzz', '--shard', '3/2'], /--shard must be i\/n with 1 <= i <= n, got "3\/2"/],
      [['fuzz', '--time', 'soon'], /--time must be a duration like 60s/],
      [['fuzz', '--scenario', 'nope'], /unknown scenario "nope"; expected one of: .*same-id-two-creates/],
      [['fuzz', '--scenario', 'same-id-two-creates', '--strategy', 'dfs', '--shard', '1/2'], /cannot be sharded/],
      [['fuzz', '--guidance', 'maybe'], /--guidance must be on or off, got "maybe"/],
      [['fuzz', '--scenario', 'same-id-two-creates', '--guidance', 'off'], /--guidance and --no-scenario-mix apply to random programs, not to a --scenario/],
    ] as const) {
      const run = await dshKit([...args])
      expect(run.code).toBe(64)
      expect(run.stderr).toMatch(message)
    }
  }, 60_000)

  it('list prints the scenarios and the mutants after the clauses', async () => {
    const run = await dshKit(['list'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^scenarios \(\d+\): dsh-kit fuzz --scenario <name>$/m)
    expect(run.stdout).toMatch(/^ {2}same-id-two-creates +two concurrent creates/m)
    expect(run.stdout).toMatch(/^mutants \(\d+\): dsh-kit fuzz --adapter conformance\/mutants\/<file>$/m)
    expect(run.stdout).toMatch(/^ {2}m01-setup-after-publish\.ts +M01: setup runs after the agent is already published$/m)
  })
})
