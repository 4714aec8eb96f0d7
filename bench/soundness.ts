/**
 * The soundness campaign: are the checkers silent on conforming code? Guided fuzz campaigns over
 * both conforming factories (the reference, and the independent `examples/from-scratch-factory`)
 * under the strategies `random`, `pct` and `portfolio`, each run with `--keep-going` through the
 * built CLI as a user runs it, and recorded in bench/long-campaigns.json with its command and commit
 * (`long-campaigns.ts`). Every violation it finds is a checker false positive or a real bug of that
 * factory: settle it (fix the checker and keep the run as a fixture, or fix the factory).
 *
 *   npm run soundness -- --runs 10000 [--seed S] [--workers N] [--only reference|from-scratch] [--strategy random|pct|portfolio] [--no-record]
 *
 * Each pair gets its own seed range (`S + 1,000,000 × k`), so no two campaigns share programs.
 * Prints one line per campaign and exits 1 when any campaign found a violation.
 * @module
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { arg, fmt } from './common.js'
import { recordCampaign } from './long-campaigns.js'

/** The conforming factories, as `--adapter` names them (none: the built-in reference). */
export const FACTORIES: readonly { readonly name: string; readonly adapter?: string }[] = [
  { name: 'reference' },
  { name: 'from-scratch', adapter: 'examples/from-scratch-factory/adapter.ts' },
]

export const STRATEGIES = ['random', 'pct', 'portfolio'] as const

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CLI = join(ROOT, 'dist', 'cli', 'main.js')

/** The commit the campaigns run at (`-dirty` when the worktree has changes). */
function commit(): string {
  const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim()
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((l) => l.trim() && !l.endsWith('bench/long-campaigns.json'))
  return dirty.length > 0 ? `${sha}-dirty` : sha
}

/** Run one campaign through the CLI; resolves with its `--json` report's path and its wall time. */
function campaign(args: readonly string[], json: string): Promise<{ wallSeconds: number; code: number }> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'fuzz', ...args, '--json', json, '--no-timelines'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
    child.on('error', reject)
    child.on('exit', (code) => resolve({ wallSeconds: (performance.now() - started) / 1000, code: code ?? 1 }))
  })
}

async function main(): Promise<void> {
  const runs = Number(arg('runs') ?? 10_000)
  const seed = Number(arg('seed') ?? 0)
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`--runs must be an integer >= 1, got ${arg('runs')}`)
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer, got ${arg('seed')}`)
  const workers = arg('workers')
  const only = arg('only')
  const strategies = arg('strategy') ? [arg('strategy')!] : STRATEGIES
  const record = !process.argv.includes('--no-record')
  const at = commit()
  const dir = mkdtempSync(join(tmpdir(), 'dsh-soundness-'))
  let violating = 0
  for (const [f, factory] of FACTORIES.entries()) {
    if (only !== undefined && factory.name !== only) continue
    for (const [s, strategy] of STRATEGIES.entries()) {
      if (!strategies.includes(strategy)) continue
      const pairSeed = seed + 1_000_000 * (f * STRATEGIES.length + s)
      const args = [...(factory.adapter ? ['--adapter', factory.adapter] : []), '--strategy', strategy, '--runs', String(runs), '--seed', String(pairSeed), '--keep-going', ...(workers ? ['--workers', workers] : [])]
      const json = join(dir, `${factory.name}-${strategy}.json`)
      const { wallSeconds, code } = await campaign(args, json)
      if (!existsSync(json)) {
        // (the campaign itself failed: its stderr says why; nothing to record)
        process.stdout.write(`${factory.name.padEnd(13)} ${strategy.padEnd(10)} FAILED to run (exit ${code})\n`)
        violating++
        continue
      }
      const report = JSON.parse(readFileSync(json, 'utf8')) as { runs: number; violatingRuns: number; violationCounts: Record<string, number> }
      violating += report.violatingRuns
      const command = `dsh-kit fuzz ${args.join(' ')}`
      const found = report.violatingRuns === 0 ? 'clean' : `${fmt(report.violatingRuns)} violating runs: ${Object.entries(report.violationCounts).map(([k, n]) => `${k} ×${n}`).join(', ')}`
      process.stdout.write(`${factory.name.padEnd(13)} ${strategy.padEnd(10)} ${fmt(report.runs).padStart(9)} runs  ${fmt(wallSeconds / 60, 1).padStart(6)} min  ${found}\n`)
      if (record) recordCampaign(json, command, at, { wallSeconds })
    }
  }
  process.exitCode = violating === 0 ? 0 : 1
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
