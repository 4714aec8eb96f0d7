/**
 * The conformance suite (design.md concept 6): for each clause group, the directed cases of
 * `cases/` (run through the process port, for factory and process adapters alike) and the directed programs of `programs.ts` run under many schedules, plus seeded
 * random programs, all checked by the trace checkers. `certify` returns a report per clause; a
 * failure carries its seed, program, decision log and a one-line replay command.
 * @module
 */
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { caseTitle, DIRECTED_CASES } from './cases/index.js'
import type { CaseTarget, DirectedCase } from './cases/index.js'
import { guardLivelock } from './cases/guard.js'
import type { ProcessHandle } from '../core/process.js'
import type { Program } from '../sim/program.js'
import { runProgram } from '../sim/run.js'
import type { RunResult } from '../sim/run.js'
import { toRunFile, writeRunFile } from '../sim/run-file.js'
import { pct, random } from '../sim/strategies/index.js'
import type { Strategy } from '../sim/strategies/index.js'
import { renderTrace } from '../sim/trace.js'
import { createRoot } from '../core/root.js'
import { AdapterError, normalizeAdapter } from './adapter.js'
import type { Adapter, NormalizedAdapter, Supports } from './adapter.js'
import { checkRun, CHECKED_CLAUSES } from './checkers/index.js'
import type { Violation } from './checkers/index.js'
import { CLAUSES } from './clauses.js'
import { DIRECTED_PROGRAMS } from './programs.js'
import { randomProgram } from './random-programs.js'

/** The suite's version (reported with every certificate). */
export const SUITE_VERSION = '0.1.0'

/** How hard to look. */
export interface Profile {
  readonly name: 'quick' | 'thorough'
  /** Schedules per directed program. */
  readonly schedules: number
  /** Seeded random programs (one schedule each). */
  readonly randomPrograms: number
}

/** The two profiles. */
export const PROFILES: Readonly<Record<Profile['name'], Profile>> = {
  quick: { name: 'quick', schedules: 24, randomPrograms: 200 },
  thorough: { name: 'thorough', schedules: 160, randomPrograms: 2500 },
}

/** Progress events while certifying. */
export type Progress =
  | { kind: 'phase'; phase: 'directed cases' | 'directed programs' | 'random programs'; total: number }
  | { kind: 'tick'; done: number; total: number; failures: number }

/** Options of {@link certify}. */
export interface CertifyOptions {
  readonly profile?: Profile['name']
  /** Where failing runs are saved as replayable run files (default `.dsh-kit/failures`). */
  readonly outDir?: string
  /** The adapter module path as the user named it; recorded in run files and replay commands. */
  readonly adapterModule?: string
  readonly onProgress?: (progress: Progress) => void
  /** Base seed of the schedules and random programs (default 0). */
  readonly seed?: number
  /** Stop at the first failing clause (mutation testing: "is it caught, and by what?"). */
  readonly failFast?: boolean
  /** Only these clauses (`"AGENT-ATOMIC-TEST 64"` or `64`): their directed cases, and the runs only if a checker covers one. */
  readonly only?: readonly (string | number)[]
}

/** The first counterexample found for a clause. */
export interface Failure {
  readonly message: string
  readonly via: 'directed case' | 'directed program' | 'random program'
  readonly caseTitle?: string
  readonly programName?: string
  readonly program?: Program
  readonly strategy?: string
  readonly seed?: number
  readonly decisions?: number
  readonly runFile?: string
  readonly replay?: string
  readonly timeline?: string
}

/** How a clause was checked: by a directed case, a directed program aimed at it, or a trace checker over the simulated runs. */
export type CheckedBy = 'case' | 'program' | 'checker'

/** The verdict on one clause. */
export interface ClauseResult {
  readonly key: string
  readonly group: string
  readonly clause: number
  readonly title: string
  /**
   * `unchecked`: no directed case, program or checker checked it on this adapter (`reason` says
   * why). The kit's own unit tests never count as a check of a runtime.
   */
  readonly status: 'pass' | 'fail' | 'unchecked'
  /** Directed cases plus runs that checked it. */
  readonly checks: number
  /** What checked it (empty when unchecked or `kit`). */
  readonly checkedBy: readonly CheckedBy[]
  /** Why it is unchecked: e.g. `needs capability scopeMinting`. */
  readonly reason?: string
  readonly failure?: Failure
  /** When a simulated run also failed the clause (`failure`), the directed case's failure. */
  readonly caseFailure?: Failure
}

/** A certificate. */
export interface Report {
  readonly suite: { readonly version: string }
  readonly adapter: { readonly name: string; readonly version: string; readonly supports: Supports; readonly reproduces?: string }
  readonly profile: Profile['name']
  readonly runs: number
  readonly directedCases: number
  readonly durationMs: number
  readonly clauses: readonly ClauseResult[]
  readonly passed: boolean
  /** Keys of failing clauses. */
  readonly failing: readonly string[]
}

const CASE_TIMEOUT_MS = 10_000
/** Model calls plus checkpoints one case's process may make (the reference needs a few dozen at most). */
const CASE_BUDGET = 1_000

/** The strategy of schedule `k`: alternating random and pct d=1..3. */
export function strategyFor(k: number, seed: number): Strategy {
  const s = seed + k
  switch (k % 4) {
    case 0: return random({ seed: s })
    case 1: return pct({ seed: s, depth: 1 })
    case 2: return pct({ seed: s, depth: 2 })
    default: return pct({ seed: s, depth: 3 })
  }
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

/** What the directed cases run against for an adapter: its process and its manifest. */
export function caseTarget(adapter: NormalizedAdapter): CaseTarget {
  return { process: adapter.processFactory, supports: adapter.supports }
}

/** Why a case cannot run on an adapter (a missing capability, or no resume), or undefined. */
export function caseSkipReason(c: DirectedCase, supports: Supports): string | undefined {
  const missing = (c.needs ?? []).filter((n) => !supports[n])
  if (missing.length > 0) return `needs capability ${missing.join(', ')}`
  if ((c.resumes ?? /resume|restart/i.test(c.title)) && !supports.resume) return 'needs resume (supports.resume is false)'
  return undefined
}

/** Run one directed case under the livelock guard and a time limit; resolves with its failure message, or undefined when it passed. */
export async function runCase(c: DirectedCase, target: CaseTarget): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined
  const livelock = `livelock: more than ${CASE_BUDGET} model calls and checkpoints in one process (stopped by the guard)`
  const tripped: { value: boolean; onTrip?: () => void } = { value: false }
  // Every process the case boots is abandoned once it settles: a case does not shut its processes
  // down, and what they hold process-wide (an enabled AsyncLocalStorage, patched globals, hooks)
  // would slow or disturb every later case and simulated run.
  const booted: ProcessHandle[] = []
  const boot = guardLivelock(target.process, CASE_BUDGET, tripped)
  const guarded: CaseTarget = { ...target, process: async (services) => { const handle = await boot(services); booted.push(handle); return handle } }
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`did not settle within ${CASE_TIMEOUT_MS} ms (a hang)`), CASE_TIMEOUT_MS)
    timer.unref()
    tripped.onTrip = () => resolve(livelock)
  })
  try {
    const outcome = await Promise.race([c.run(guarded).then(() => undefined, (error: unknown) => (error instanceof Error ? error.message : String(error))), timeout])
    return tripped.value ? livelock : outcome
  } finally {
    for (const handle of booted) {
      try { handle.abandon() } catch { /* a process that cannot be abandoned is left as it is */ }
    }
    clearTimeout(timer)
  }
}

/** Certify an adapter: every clause's verdict, with a replayable counterexample per failure. */
export async function certify(adapterInput: Adapter, options: CertifyOptions = {}): Promise<Report> {
  const started = performance.now()
  const adapter = normalizeAdapter(adapterInput, options.adapterModule ?? 'adapter')
  await probeInstall(adapter, options.adapterModule ?? adapter.name)
  const profile = PROFILES[options.profile ?? 'quick']
  const seed = options.seed ?? 0
  const outDir = resolve(options.outDir ?? join('.dsh-kit', 'failures'))
  const failures = new Map<string, Failure>()
  const caseFailures = new Map<string, Failure>()
  const checks = new Map<number, number>()
  const count = (clause: number): void => { checks.set(clause, (checks.get(clause) ?? 0) + 1) }
  const progress = options.onProgress ?? (() => undefined)

  // 1. Directed cases: the §9 properties as gated tests.
  const only = options.only?.map((o) => (typeof o === 'number' ? o : Number(/(\d+)\s*$/.exec(o)?.[1])))
  const wanted = (clause: number): boolean => !only || only.includes(clause)
  // Directed cases run through the process port, for factory and process adapters alike; a case
  // needing a capability the process lacks is skipped, and its reason kept for the clause.
  const skipped = new Map<number, string>()
  const cases = DIRECTED_CASES.filter((c) => {
    if (!wanted(c.clause)) return false
    const reason = caseSkipReason(c, adapter.supports)
    if (reason && !skipped.has(c.clause)) skipped.set(c.clause, reason)
    return reason === undefined
  })
  const target = caseTarget(adapter)
  const byCase = new Set<string>()
  progress({ kind: 'phase', phase: 'directed cases', total: cases.length })
  let done = 0
  const stop = (): boolean => options.failFast === true && failures.size > 0
  for (const c of cases) {
    if (stop()) break
    const error = await runCase(c, target)
    count(c.clause)
    byCase.add(clauseKey(c.clause))
    const key = clauseKey(c.clause)
    if (error !== undefined && !caseFailures.has(key)) {
      const adapterArg = options.adapterModule ? ` --adapter ${options.adapterModule}` : ''
      const failure: Failure = { message: error, via: 'directed case', caseTitle: caseTitle(c), replay: `npx dsh-kit certify${adapterArg} --only "${key}"` }
      caseFailures.set(key, failure)
      failures.set(key, failure)
    }
    progress({ kind: 'tick', done: ++done, total: cases.length, failures: failures.size })
  }

  // 2 and 3. Programs under many schedules, checked by every checker.
  let runs = 0
  const runAndCheck = async (program: Program, name: string, via: Failure['via'], k: number, allowDeadlock: boolean): Promise<void> => {
    const strategy = strategyFor(k, seed)
    strategy.beginRun()
    const result = await runProgram(program, strategy, { process: adapter.processFactory })
    runs++
    for (const clause of CHECKED_CLAUSES) count(clause)
    const violations = checkRun(program, result.trace, result.outcome).filter((v) => !(allowDeadlock && v.message.startsWith('deadlock')))
    for (const v of violations) {
      // A simulated counterexample replaces a case's as the clause's failure (it replays and shrinks); the case's is kept too.
      if (failures.has(v.key) && failures.get(v.key)!.via !== 'directed case') continue
      failures.set(v.key, saveFailure(v, result, program, name, via, strategy.name, seed + k, outDir, adapter, options.adapterModule))
    }
  }
  const simulate = !only || only.some((c) => CHECKED_CLAUSES.includes(c))
  const programs = simulate ? DIRECTED_PROGRAMS.filter((p) => adapter.supports.resume || !JSON.stringify(p.program).includes('"resume"')) : []
  const byProgram = new Set(programs.flatMap((p) => p.clauses ?? []))
  const randomPrograms = simulate ? profile.randomPrograms : 0
  const total = programs.length * profile.schedules
  progress({ kind: 'phase', phase: 'directed programs', total })
  done = 0
  for (const p of programs) {
    for (let k = 0; k < profile.schedules && !stop(); k++) {
      await runAndCheck(p.program, p.name, 'directed program', k, p.hangs === true)
      progress({ kind: 'tick', done: ++done, total, failures: failures.size })
    }
  }
  progress({ kind: 'phase', phase: 'random programs', total: randomPrograms })
  for (let k = 0; k < randomPrograms && !stop(); k++) {
    const program = randomProgram(seed + k)
    if (!adapter.supports.resume && JSON.stringify(program).includes('"resume"')) continue
    await runAndCheck(program, program.name ?? `random ${seed + k}`, 'random program', k, false)
    progress({ kind: 'tick', done: k + 1, total: randomPrograms, failures: failures.size })
  }

  const clauses: ClauseResult[] = CLAUSES.filter((c) => c.group === 'X-RUN' ? simulate : wanted(c.clause)).map((c) => {
    const key = `${c.group} ${c.clause}`
    const failure = failures.get(key)
    const caseFailure = caseFailures.get(key)
    const n = c.group === 'X-RUN' ? runs : checks.get(c.clause) ?? 0
    const checkedBy: CheckedBy[] = []
    if (byCase.has(key)) checkedBy.push('case')
    if (runs > 0 && byProgram.has(c.clause)) checkedBy.push('program')
    if (runs > 0 && (c.group === 'X-RUN' || CHECKED_CLAUSES.includes(c.clause))) checkedBy.push('checker')
    // The kit's unit tests never count as checked: every kit-level clause has a case that runs
    // through the process port, on the kit's own process and on a foreign one alike.
    const status = failure ? 'fail' : n > 0 ? 'pass' : 'unchecked'
    const reason = status === 'unchecked' ? skipped.get(c.clause) ?? 'no directed case, program or checker covers it' : undefined
    return { key, group: c.group, clause: c.clause, title: c.title, status, checks: n, checkedBy, ...(reason ? { reason } : {}), ...(failure ? { failure } : {}), ...(caseFailure && caseFailure !== failure ? { caseFailure } : {}) }
  })
  const failing = clauses.filter((c) => c.status === 'fail').map((c) => c.key)
  return {
    suite: { version: SUITE_VERSION },
    adapter: { name: adapter.name, version: adapter.version, supports: adapter.supports, ...(adapter.reproduces ? { reproduces: adapter.reproduces } : {}) },
    profile: profile.name,
    runs,
    directedCases: cases.length,
    durationMs: Math.round(performance.now() - started),
    clauses,
    passed: failing.length === 0,
    failing,
  }
}

/**
 * Install the adapter once into a throwaway process, so an adapter that throws on install or does
 * not register a factory is reported as such, not as a hundred failing clauses.
 */
async function probeInstall(adapter: NormalizedAdapter, source: string): Promise<void> {
  if (adapter.foreign) return probeProcess(adapter, source)
  const root = createRoot({ warn: () => undefined })
  try {
    const installed = adapter.installFactory(root.ctx)
    if (!root.registry.factory) {
      throw new AdapterError(`${source}: install(world) returned without registering a factory; call world.ctx.agents.setFactory(factory) (or use factoryAdapter/referenceAdapter)`)
    }
    await installed.unload()
  } finally {
    await root.shutdown()
    root.abandon()
  }
}

/** Boot a process adapter once outside the simulator and check it exposes the registries. */
async function probeProcess(adapter: NormalizedAdapter, source: string): Promise<void> {
  const handle = await adapter.processFactory({
    now: () => 0, newId: (kind) => `${kind}-probe`, warn: () => undefined, checkpoint: () => Promise.resolve(),
    model: { call: async () => ({ text: 'probe' }) }, disk: new Map(),
  })
  try {
    if (typeof handle?.ctx?.agents?.create !== 'function' || typeof handle.ctx.sessions?.list !== 'function') {
      throw new AdapterError(`${source}: process(services) must return a handle whose ctx exposes agents and sessions`)
    }
    for (const method of ['observe', 'owner', 'unloadFactory', 'shutdown', 'abandon'] as const) {
      if (typeof handle[method] !== 'function') throw new AdapterError(`${source}: process(services) returned a handle without ${method}()`)
    }
    await handle.shutdown()
  } finally {
    handle?.abandon?.()
  }
}

const KEY_BY_CLAUSE = new Map(CLAUSES.filter((c) => c.group !== 'X-RUN').map((c) => [c.clause, `${c.group} ${c.clause}`]))

/** The canonical key of a §9 clause number. */
export function clauseKey(clause: number): string {
  return KEY_BY_CLAUSE.get(clause) ?? `? ${clause}`
}

function saveFailure(
  v: Violation, result: RunResult, program: Program, name: string, via: Failure['via'], strategy: string, seed: number,
  outDir: string, adapter: NormalizedAdapter, adapterModule: string | undefined,
): Failure {
  const dir = join(outDir, slug(adapter.name))
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${slug(v.key)}-${slug(name)}-${seed}.json`)
  writeRunFile(file, toRunFile(program, result, { ...(adapterModule ? { adapter: adapterModule } : {}), violations: [{ clause: v.key, message: v.message }] }))
  return {
    message: v.message, via, programName: name, program, strategy, seed, decisions: result.decisions.decisions.length,
    runFile: file, replay: `npx dsh-kit replay ${file}`, timeline: renderTrace(result.trace, result.decisions.decisions),
  }
}
