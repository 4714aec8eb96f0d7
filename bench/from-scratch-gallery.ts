/**
 * Which mode of the kit finds each mutant of the from-scratch gallery
 * (`conformance/mutants/from-scratch/`), from a cold start: `certify --profile quick`,
 * `certify --profile thorough` and `fuzz --time <budget> --seed S`, each through the built CLI as a
 * child process with `--workers 1` (so the figures do not depend on the cores left free), one
 * mutant and one mode after another.
 *
 *     npm run build && node dist/bench/from-scratch-gallery.js [--mutants f01,f02] [--seeds 1,2]
 *         [--time 120s] [--modes quick,thorough,fuzz] [--out <dir>] [--json <file>]
 *
 * Prints a markdown table (the one in `conformance/mutants/from-scratch/README.md`) and, with
 * `--json`, every measurement. A fuzz campaign stops at its first finding (the CLI's default); its
 * shrunk run file stays under `--out`.
 * @module
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { modulePath, SCRATCH_MUTANTS } from '../conformance/mutants/from-scratch/index.js'
import type { ScratchMutant } from '../conformance/mutants/from-scratch/index.js'
import { isMain, table } from './common.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CLI = join(ROOT, 'dist', 'cli', 'main.js')

const HELP = `node dist/bench/from-scratch-gallery.js [options]
  measure which mode of dsh-kit finds each mutant of conformance/mutants/from-scratch/, from a cold
  start, through the built CLI (certify and fuzz with --workers 1, one after another)
options:
  --mutants <ids>   comma-separated gallery ids (default: all, f00 included)
  --modes <modes>   comma-separated among quick, thorough, fuzz (default: all three)
  --seeds <list>    fuzz base seeds, comma-separated (default: 1)
  --time <budget>   fuzz time budget per campaign (default: 120s)
  --out <dir>       where certify and fuzz write their run files (default: a fresh temporary directory)
  --json <file>     also write every measurement as JSON
  --render <file>   print the table of a measurement saved with --json, running nothing
  --help            this text`

/** One certify run of one mutant. */
export interface CertifyResult {
  readonly exit: number
  readonly failing: readonly string[]
  readonly seconds: number
}

/** One fuzz campaign of one mutant. */
export interface FuzzResult {
  readonly seed: number
  readonly exit: number
  /** Runs of the campaign: up to and including the first finding when one was found. */
  readonly runs: number
  /** Wall seconds of the child process (start-up, the runs, shrinking and the reference cross-check). */
  readonly seconds: number
  /** The first finding's clause, and the clauses violated by its run. */
  readonly clause?: string
  readonly clauses?: readonly string[]
  readonly runSeed?: number
  readonly runFile?: string
}

/** Everything measured for one mutant. */
export interface GalleryRow {
  readonly mutant: ScratchMutant
  readonly quick?: CertifyResult
  readonly thorough?: CertifyResult
  readonly fuzz: readonly FuzzResult[]
}

function cli(args: readonly string[]): Promise<{ exit: number; seconds: number; stdout: string }> {
  const start = performance.now()
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }, (error, stdout) => {
      const exit = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      resolve({ exit, seconds: (performance.now() - start) / 1000, stdout })
    })
  })
}

function readJson(file: string): Record<string, unknown> | undefined {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> : undefined
}

async function certifyMutant(m: ScratchMutant, profile: 'quick' | 'thorough', out: string): Promise<CertifyResult> {
  const json = join(out, `${m.id}-${profile}.json`)
  const run = await cli(['certify', '--adapter', modulePath(m), '--profile', profile, '--workers', '1', '--out', join(out, `certify-${profile}`), '--json', json])
  const report = readJson(json)
  return { exit: run.exit, failing: (report?.failing as string[] | undefined) ?? [], seconds: run.seconds }
}

interface FuzzFailure { key: string; runSeed: number; run: number; alsoViolated?: string[]; runFile?: string }

async function fuzzMutant(m: ScratchMutant, seed: number, time: string, out: string): Promise<FuzzResult> {
  const json = join(out, `${m.id}-fuzz-${seed}.json`)
  const run = await cli(['fuzz', '--adapter', modulePath(m), '--time', time, '--seed', String(seed), '--workers', '1', '--out', join(out, `fuzz-${seed}`), '--json', json])
  const report = readJson(json)
  const first = (report?.failures as FuzzFailure[] | undefined)?.[0]
  const runs = first ? first.run + 1 : Number(report?.runs ?? 0)
  return {
    seed, exit: run.exit, runs, seconds: run.seconds,
    ...(first ? {
      clause: first.key, clauses: [first.key, ...(first.alsoViolated ?? [])], runSeed: first.runSeed,
      ...(first.runFile ? { runFile: first.runFile } : {}),
    } : {}),
  }
}

function certifyCell(r: CertifyResult | undefined, expected: string): string {
  if (!r) return '—'
  if (r.exit === 0) return `not caught (${r.seconds.toFixed(0)} s)`
  if (r.exit !== 1) return `exit ${r.exit} (${r.seconds.toFixed(0)} s)`
  const first = r.failing.includes(expected) ? [expected, ...r.failing.filter((c) => c !== expected)] : r.failing
  const more = first.length > 2 ? `, +${first.length - 2}` : ''
  return `**caught**: ${first.slice(0, 2).join(', ')}${more} (${r.seconds.toFixed(0)} s)`
}

function fuzzCell(r: FuzzResult | undefined, time: string): string {
  if (!r) return '—'
  if (r.exit === 0) return `not found in ${time.replace(/(\d)([a-z]+)$/, '$1 $2')} (${r.runs} runs)`
  if (r.exit !== 1 || !r.clause) return `exit ${r.exit} after ${r.runs} runs (${r.seconds.toFixed(0)} s)`
  return `**${r.clause}** at run ${r.runs} (${r.seconds.toFixed(1)} s)`
}

/** The markdown table of `rows`: one column per fuzz seed. */
export function galleryTable(rows: readonly GalleryRow[], seeds: readonly number[], time: string): string {
  return table(
    ['mutant', 'bug', 'expected clause', 'certify quick', 'certify thorough', ...seeds.map((s) => `fuzz seed ${s}`)],
    rows.map((r) => [
      `${r.mutant.id} ${r.mutant.name}`, r.mutant.description, r.mutant.clause, certifyCell(r.quick, r.mutant.clause), certifyCell(r.thorough, r.mutant.clause),
      ...seeds.map((s) => fuzzCell(r.fuzz.find((f) => f.seed === s), time)),
    ]),
  )
}

function list(name: string): string[] | undefined {
  const i = process.argv.indexOf(`--${name}`)
  if (i < 0) return undefined
  const value = process.argv[i + 1]
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`)
  return value.split(',').map((v) => v.trim()).filter(Boolean)
}

async function main(): Promise<void> {
  if (process.argv.includes('--help')) { console.log(HELP); return }
  const saved = list('render')?.[0]
  if (saved) {
    const measured = readJson(saved) as { time: string; seeds: number[]; rows: GalleryRow[] } | undefined
    if (!measured) throw new Error(`--render: ${saved} does not exist`)
    console.log(galleryTable(measured.rows, measured.seeds, measured.time))
    return
  }
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`)
  const ids = list('mutants')
  const mutants = ids ? ids.map((id) => {
    const found = SCRATCH_MUTANTS.find((m) => m.id === id)
    if (!found) throw new Error(`--mutants: unknown id "${id}" (known: ${SCRATCH_MUTANTS.map((m) => m.id).join(', ')})`)
    return found
  }) : SCRATCH_MUTANTS
  const modes = list('modes') ?? ['quick', 'thorough', 'fuzz']
  for (const mode of modes) if (!['quick', 'thorough', 'fuzz'].includes(mode)) throw new Error(`--modes: unknown mode "${mode}" (quick, thorough, fuzz)`)
  const seeds = (list('seeds') ?? ['1']).map((s) => {
    const n = Number(s)
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--seeds: "${s}" is not a non-negative integer`)
    return n
  })
  const time = list('time')?.[0] ?? '120s'
  const out = list('out')?.[0] ?? mkdtempSync(join(tmpdir(), 'dsh-scratch-gallery-'))
  mkdirSync(out, { recursive: true })
  const jsonOut = list('json')?.[0]

  const rows: GalleryRow[] = []
  for (const m of mutants) {
    const quick = modes.includes('quick') ? await certifyMutant(m, 'quick', out) : undefined
    const thorough = modes.includes('thorough') ? await certifyMutant(m, 'thorough', out) : undefined
    const fuzz: FuzzResult[] = []
    if (modes.includes('fuzz')) for (const seed of seeds) fuzz.push(await fuzzMutant(m, seed, time, out))
    const row: GalleryRow = { mutant: m, ...(quick ? { quick } : {}), ...(thorough ? { thorough } : {}), fuzz }
    rows.push(row)
    console.error(`${m.id}: quick ${certifyCell(quick, m.clause)}; thorough ${certifyCell(thorough, m.clause)}; ${fuzz.map((f) => `fuzz seed ${f.seed} ${fuzzCell(f, time)}`).join('; ')}`)
    if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ time, seeds, modes, out, rows }, null, 2) + '\n') // after each mutant: a long run keeps what it measured
  }
  console.log(galleryTable(rows, seeds, time))
  console.log(`\nrun files under ${out}/`)
}

if (isMain(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 64
  })
}
