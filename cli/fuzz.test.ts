import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { KIT_ROOT } from './adapter-loader.js'
import { outsideProject } from './child-cli.test-helper.js'

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
      [['fuzz', '--recycle-after', 'often'], /--recycle-after must be an integer >= 0, got "often"/],
      [['fuzz', '--scenario', 'same-id-two-creates', '--guidance', 'off'], /--guidance and --no-scenario-mix apply to random programs, not to a --scenario/],
    ] as const) {
      const run = await dshKit([...args])
      expect(run.code).toBe(64)
      expect(run.stderr).toMatch(message)
    }
  }, 60_000)

  it('fuzz --recycle-after replaces the workers without changing the report; an adapter asks for it with recycleAfter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-fuzz-'))
    const same = async (a: string, b: string): Promise<string> => (await exec(process.execPath, [join(KIT_ROOT, 'scripts', 'same-json.mjs'), a, b])).stdout.trim()
    // A mutant (failures shrunk and reported through the same workers), every 4 seeds and never.
    const campaign = ['fuzz', '--adapter', M01, '--runs', '30', '--seed', '5', '--workers', '1', '--keep-going', '--out', dir]
    const never = await dshKit([...campaign, '--recycle-after', '0', '--json', join(dir, 'never.json')])
    const every4 = await dshKit([...campaign, '--recycle-after', '4', '--json', join(dir, 'every4.json')])
    expect([never.code, every4.code]).toEqual([1, 1])
    expect(every4.stderr).toMatch(/1 worker \(each replaced after 4 seeds\)/)
    expect(never.stderr).not.toMatch(/replaced after/)
    expect(await same(join(dir, 'never.json'), join(dir, 'every4.json'))).toBe('identical (timing fields aside)')

    // An adapter's own recycleAfter applies unless --recycle-after says otherwise; a bad one is refused.
    const project = outsideProject()
    writeFileSync(join(project, 'leaky.mjs'), `
      import { ReferenceFactory } from 'dsh-lifecycle-kit'
      import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
      const adapter = factoryAdapter({ name: 'leaky-loop', version: '1.0.0' }, (pluginCtx) => {
        const factory = new ReferenceFactory(pluginCtx)
        pluginCtx.effect(() => () => factory.shutdown(), 'leaky-loop.factory')
        return factory
      })
      export default { ...adapter, recycleAfter: Number(process.env.LEAKY_RECYCLE_AFTER ?? 5) }
    `)
    const leaky = ['fuzz', '--adapter', join(project, 'leaky.mjs'), '--runs', '24', '--seed', '9', '--workers', '2']
    const asked = await dshKit([...leaky, '--json', join(dir, 'asked.json')])
    const overridden = await dshKit([...leaky, '--recycle-after', '0', '--json', join(dir, 'overridden.json')])
    expect([asked.code, overridden.code]).toEqual([0, 0])
    expect(asked.stderr).toMatch(/2 workers \(each replaced after 5 seeds, as the adapter asks\)/)
    expect(overridden.stderr).not.toMatch(/replaced after/)
    expect(await same(join(dir, 'asked.json'), join(dir, 'overridden.json'))).toBe('identical (timing fields aside)')
    const bad = await exec(process.execPath, [join(KIT_ROOT, 'dist', 'cli', 'main.js'), ...leaky], { cwd: KIT_ROOT, env: { ...process.env, LEAKY_RECYCLE_AFTER: '0' } }).then(() => undefined, (error: { code: number; stderr: string }) => error)
    expect(bad?.code).toBe(78)
    expect(bad?.stderr).toMatch(/"recycleAfter" must be an integer >= 1 \(run seeds per campaign worker\), got 0/)
  }, 120_000)

  it('list prints the scenarios and the mutants after the clauses', async () => {
    const run = await dshKit(['list'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^scenarios \(\d+\): dsh-kit fuzz --scenario <name>$/m)
    expect(run.stdout).toMatch(/^ {2}same-id-two-creates +two concurrent creates/m)
    expect(run.stdout).toMatch(/^mutants \(\d+\): dsh-kit fuzz --adapter conformance\/mutants\/<file>$/m)
    expect(run.stdout).toMatch(/^ {2}m01-setup-after-publish\.ts +M01: setup runs after the agent is already published$/m)
  })
})
