/**
 * `npm run bench`: every benchmark in one run on this machine, written to bench/RESULTS.md.
 *
 * Order: the timed benchmarks first, one at a time (scheduler throughput, certify, the profile),
 * then the two that count runs or bytes rather than seconds in parallel (the detection benchmark
 * and the 100,000-run campaign's memory), each in its own child process, then the first detection
 * from a cold start (guided vs unguided vs fast-check) on every core.
 *
 * `node dist/bench/run.js --smoke` runs everything scaled down (a minute) to check the harness;
 * its RESULTS are not meant to be committed.
 * @module
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { benchCampaign, benchCertify, campaignGrowth, campaignTable, certifyTable } from './certify.js'
import type { CampaignResult, CertifySample } from './certify.js'
import { fmt, median, table } from './common.js'
import { bestKit, benchDetectParallel, detectTable, orderingMeasurements, scheduleDependent, speedup } from './detect.js'
import { benchFirstDetectionParallel, FIRST_DETECTION_FULL, firstDetectionSection, firstDetectionSummary } from './first-detection.js'
import type { FirstDetectionRow } from './first-detection.js'
import type { DetectOptions, DetectRow, Measurement } from './detect.js'
import { profileScheduler, profileTables } from './profile.js'
import type { ProfileSummary } from './profile.js'
import { benchEngine, benchScheduler, schedulerTable } from './scheduler.js'
import type { SchedulerRow } from './scheduler.js'

const smoke = process.argv.includes('--smoke')
const RESULTS = fileURLToPath(new URL(smoke ? '../../bench/RESULTS.smoke.md' : '../../bench/RESULTS.md', import.meta.url))

const CONFIG = smoke
  ? { schedulerReps: 2, schedulerScale: 0.1, batchSeconds: 0.1, quickReps: 1, thoroughReps: 0, campaignRuns: 2_000, campaignEvery: 200, seeds: 3, cap: 20, randomCandidates: 4, screenRuns: 2, firstSeeds: 1, firstCap: 30 }
  : { schedulerReps: 5, schedulerScale: 1, batchSeconds: 1, quickReps: 3, thoroughReps: 2, campaignRuns: 100_000, campaignEvery: 10_000, seeds: 20, cap: 200, randomCandidates: 12, screenRuns: 6, firstSeeds: FIRST_DETECTION_FULL.seeds, firstCap: FIRST_DETECTION_FULL.cap }

function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`)
}

function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).split('\n').filter(Boolean).map((l) => l.slice(3))
    if (dirty.length === 0) return head
    return `${head} (uncommitted changes in ${dirty.slice(0, 6).join(', ')}${dirty.length > 6 ? `, … ${dirty.length} files` : ''})`
  } catch {
    return 'unknown'
  }
}

function machine(): string {
  const c = cpus()
  const models = [...new Set(c.map((x) => x.model.trim()))].join(', ')
  return [
    `- CPU: ${c.length} × ${models} (${fmt(median(c.map((x) => x.speed)))} MHz reported)`,
    `- Memory: ${fmt(totalmem() / 1024 ** 3, 1)} GiB`,
    `- OS: ${platform()} ${release()} ${arch()}`,
    `- Node: ${process.version} (V8 ${process.versions.v8})`,
  ].join('\n')
}

function load(): string {
  return loadavg().map((x) => x.toFixed(2)).join(' / ')
}

function medianRatio(m: Measurement, cap: number): { text: string; value: number } {
  const best = bestKit(m)!
  const base = m.results.find((x) => x.strategy === 'fc.scheduler()')!
  if (!Number.isFinite(best.median)) return { text: `n/a (best kit median >${cap})`, value: Number.NaN }
  if (!Number.isFinite(base.median)) return { text: `≥ ${fmt(cap / best.median, 1)}× (fc median >${cap})`, value: cap / best.median }
  const v = base.median / best.median
  return { text: `${fmt(v, 2)}×`, value: v }
}

function goals(sched: readonly SchedulerRow[], rows: readonly DetectRow[], certs: readonly CertifySample[], campaign: CampaignResult, cap: number, first: readonly FirstDetectionRow[], firstCap: number): string {
  const world = sched.filter((r) => !r.program.startsWith('engine only'))
  const ratios = world.map((r) => `${r.program}: ${fmt(r.ratio, 2)}× wall, ${fmt(r.cpuRatio, 2)}× CPU`).join('; ')
  const ordering = orderingMeasurements(rows)
  const ord = ordering.map(({ row, m }) => `${row.catalog} on ${m.program}: ${medianRatio(m, cap).text} (median), ${fmt(speedup(m), 2)}× (rate)`).join('; ')
  const quick = certs.filter((c) => c.profile === 'quick')
  const thorough = certs.filter((c) => c.profile === 'thorough')
  const q = median(quick.map((c) => c.wallMs)) / 1000
  const t = median(thorough.map((c) => c.wallMs)) / 1000
  const qc = median(quick.map((c) => c.cpuMs)) / 1000
  const tc = median(thorough.map((c) => c.cpuMs)) / 1000
  const g = campaignGrowth(campaign)
  const flat = Math.abs(g.growthMB) < 5
  const cold = firstDetectionSummary(first, firstCap)
  return table(['goal', 'target', 'measured', 'met'], [
    ['scheduler throughput', 'decisions/s ≥ 3× fc.scheduler() on the same program', ratios || 'n/a', world.every((r) => r.ratio >= 3) ? 'yes' : 'no'],
    ['bug finding from a cold start (§5)', 'median over the gallery of runs-to-first-detection, guided fuzz ≥ 10× fewer than fast-check (programArbitrary + fc.scheduler())', `median fc ÷ guided ${fmt(cold.medianRatio, 2)}×; detected within ${fmt(firstCap)} runs (median search): guided ${cold.found['kit guided']}, unguided ${cold.found['kit unguided']}, fc ${cold.found['fc baseline']} of ${first.length}`, cold.medianRatio >= 10 ? 'yes' : 'no (see §5)'],
    ['schedule strategies on fixed programs (§2)', 'median runs-to-detect ≥ 10× fewer than fc.scheduler() on the ordering mutants', ordering.length ? ord : 'no mutant whose detection depends on the schedule on its program', ordering.length && ordering.every(({ m }) => medianRatio(m, cap).value >= 10) ? 'yes' : 'no'],
    ['certify quick', '< 10 s', quick.length ? `${fmt(q, 1)} s wall (${fmt(qc, 1)} s CPU)` : 'not run', quick.length ? (q < 10 ? 'yes' : 'no') : 'n/a'],
    ['certify thorough', '< 60 s', thorough.length ? `${fmt(t, 1)} s wall (${fmt(tc, 1)} s CPU)` : 'not run', thorough.length ? (t < 60 ? 'yes' : 'no') : 'n/a'],
    ['campaign memory', `flat over ${fmt(campaign.runs)} runs`, `heapUsed after GC ${fmt(campaign.samples.find((s) => s.runs > 0)?.heapMB ?? 0, 1)} → ${fmt(campaign.samples.at(-1)!.heapMB, 1)} MB (slope ${fmt(g.slopeMBPer10k, 2)} MB per 10,000 runs)`, flat ? 'yes' : 'no'],
  ])
}

async function main(): Promise<void> {
  const started = new Date()
  const startLoad = load()
  const t0 = performance.now()
  log(`machine load ${startLoad}; results go to ${RESULTS}`)

  log('1/5 scheduler throughput (kit vs fc.scheduler(), same world)')
  const sched = await benchScheduler({ reps: CONFIG.schedulerReps, scale: CONFIG.schedulerScale, batchSeconds: CONFIG.batchSeconds })
  sched.push(...await benchEngine({ reps: CONFIG.schedulerReps, scale: CONFIG.schedulerScale, batchSeconds: CONFIG.batchSeconds }))
  const t1 = performance.now()

  log('2/5 certify quick and thorough, each in a fresh process')
  const certs = await benchCertify({ quickReps: CONFIG.quickReps, thoroughReps: CONFIG.thoroughReps })
  const t2 = performance.now()

  log('3/5 cpu profile of the kit scheduler path')
  const profile: ProfileSummary = await profileScheduler()
  const t3 = performance.now()

  log(`4/5 + 5/5 detection (${CONFIG.seeds} seeds, cap ${CONFIG.cap}) and the ${fmt(CONFIG.campaignRuns)}-run campaign, in parallel child processes`)
  const detectOptions: DetectOptions = { seeds: CONFIG.seeds, cap: CONFIG.cap, randomCandidates: CONFIG.randomCandidates, screenRuns: CONFIG.screenRuns }
  // The campaign takes one core; detection gets the rest.
  const jobs = Math.max(1, cpus().length - 1)
  const [rows, campaign] = await Promise.all([
    benchDetectParallel({ ...detectOptions, jobs }),
    benchCampaign(CONFIG.campaignRuns, CONFIG.campaignEvery),
  ])
  const t4 = performance.now()

  log(`6/6 first detection from a cold start (${CONFIG.firstSeeds} seeds, cap ${CONFIG.firstCap}): kit guided, kit unguided, fast-check, on ${cpus().length} child processes`)
  const firstLoad = load()
  const first = await benchFirstDetectionParallel({ seeds: CONFIG.firstSeeds, cap: CONFIG.firstCap, jobs: cpus().length })
  const t5 = performance.now()
  const endLoad = load()

  const minutes = (ms: number): string => `${fmt(ms / 60_000, 1)} min`
  const g = campaignGrowth(campaign)
  const measured = rows.filter((r) => r.main)
  const ordering = orderingMeasurements(rows)
  const unmeasured = rows.filter((r) => !r.main)
  const regressions = measured.filter((r) => r.main!.programSource === 'regression').length
  const out = `# Benchmarks

${smoke ? '**SMOKE RUN (scaled down): not representative.**\n\n' : ''}Date: ${started.toISOString()} · commit ${gitCommit()} · total ${minutes(t5 - t0)} (scheduler ${minutes(t1 - t0)}, certify ${minutes(t2 - t1)}, profile ${minutes(t3 - t2)}, detection ∥ campaign ${minutes(t4 - t3)}, first detection ${minutes(t5 - t4)})

## Machine

${machine()}
- Load average (1/5/15 min) at start: ${startLoad}; at end: ${endLoad}. Other processes were sharing the machine when the load is above the CPU count: wall-clock figures are then pessimistic, which is why CPU time is reported next to them and every comparison is a ratio of two measurements taken alternately in the same run.

## Commands

- Everything: \`npm run bench\` (= \`npm run build --silent && node dist/bench/run.js\`), which writes this file.
- Alone: \`node dist/bench/scheduler.js [--engine]\`, \`node dist/bench/detect.js --jobs 2\`, \`node dist/bench/certify.js\`, \`node dist/bench/profile.js\`, \`node dist/bench/first-detection.js --jobs 2 [--quick] [--write]\` (after \`npm run build\`; \`--write\` replaces §5 of this file).
- Settings of this run: scheduler ${CONFIG.schedulerReps} measured batches per side of about ${CONFIG.batchSeconds} s each (sized by one discarded warm-up batch), batches alternate kit / fast-check; detection ${CONFIG.seeds} seeds, at most ${CONFIG.cap} runs per seed, screening ${CONFIG.screenRuns}+${CONFIG.screenRuns} runs per candidate program over ${CONFIG.randomCandidates} random programs plus the directed programs and named scenarios; certify quick ×${CONFIG.quickReps} and thorough ×${CONFIG.thoroughReps}, each in a fresh process; campaign ${fmt(CONFIG.campaignRuns)} runs sampled every ${fmt(CONFIG.campaignEvery)}.

## 1. Scheduler throughput: the kit's scheduler vs \`fc.scheduler()\` on the same world

Programs: 1, 4 and 16 actors, each creating its own session with a 2-step async setup (\`bench/scheduler.ts\`, plain \`Program\` JSON). Kit: \`runProgram\` under the \`random\` strategy (virtual clock installed, process watch on, a real macrotask turn per decision, trace recorded). Baseline: the same \`World\`, factory and trace through \`runProgramWith\` and \`bench/fc-driver.ts\` (each scheduling point is \`s.schedule(Promise.resolve(), label)\`, blocks never resolve, the loop is \`await s.waitIdle()\`), inside \`fc.assert(fc.asyncProperty(fc.scheduler(), …))\`. A decision is one scheduling point let through. Medians over batches; ratios > 1 mean the kit is faster.

${schedulerTable(sched)}

The two "engine only" rows (formerly \`bench/scheduler-engine.bench.ts\`) run 3 actors of bare scheduling points with no world: they separate the schedulers' own per-run and per-decision costs from the world's.

## 2. Bug detection: runs to the first detection, per strategy

Oracle: \`checkRun\` (every checker) on the run's trace; a deadlock counts only where the program does not expect one. Each cell: detection rate (detections ÷ runs executed, the per-run probability's maximum-likelihood estimate when every seed runs until its first detection or the cap) / median runs to the first detection over ${CONFIG.seeds} seeds (\`>${CONFIG.cap}\`: more than half the seeds never detected within ${CONFIG.cap} runs). "best ÷ fc" is the best kit strategy's rate over the baseline's (how many times fewer runs it needs on average). Fixed program: the mutant's saved (shrunk) regression program in \`scenarios/regressions/\` if any, else the candidate program (directed programs, named scenarios, seeded random programs; the reference factory must pass all of them) with the most detections in screening (see \`bench/detect.ts\`). Where every run detects on the fixed program, a schedule-sensitive candidate is measured too (second table).

${detectTable(rows, CONFIG.cap)}

Measured: ${measured.length} of ${rows.length} mutants (${regressions} on their regression program). Ordering mutants (detection depends on the schedule, on the fixed program or on a schedule-sensitive one): ${ordering.length ? ordering.map(({ row }) => row.catalog).join(', ') : 'none'}. A mutant detected by every run of every strategy on its program is exposed by the program alone: no strategy can do better than one run there.

## 3. Certify and campaign memory

Certify on the reference factory (\`REFERENCE_ADAPTER\`), each repeat in a fresh \`node dist/bench/certify.js --child certify --profile <p>\`; peak RSS is \`process.resourceUsage().maxRSS\` of that process.

${certifyTable(certs)}

A ${fmt(campaign.runs)}-run fuzz campaign (\`runCampaign\` of \`scenarios/campaign.ts\`: random programs from the fast-check arbitrary, portfolio schedules, every checker, reference factory), in \`node --expose-gc dist/bench/certify.js --child campaign\`: heapUsed right after a forced full GC. ${fmt(campaign.wallMs / 1000, 0)} s wall, ${fmt(campaign.cpuMs / 1000, 0)} s CPU (${fmt(campaign.cpuMs / campaign.runs, 2)} ms CPU per run); outcomes ${JSON.stringify(campaign.outcomes)}; violating runs ${campaign.violatingRuns}${campaign.violatingRuns ? ` (${JSON.stringify(campaign.violationCounts)})` : ''}; peak RSS ${fmt(campaign.maxRssMB)} MB.

${campaignTable(campaign)}

Growth from the first sample to the last: ${fmt(g.growthMB, 2)} MB; least-squares slope ${fmt(g.slopeMBPer10k, 3)} MB per 10,000 runs.
${campaign.failures.length === 0 ? '' : `
The campaign's checkers flagged runs of the **reference factory** (not a benchmark failure, a finding for the owners of the core and the checkers; each line reruns the first such run):

${campaign.failures.map((f) => `- ${f.key} (run seed ${f.runSeed}, ${f.strategy}): ${f.message.slice(0, 220)}${f.message.length > 220 ? '…' : ''} — \`${f.rerun}\``).join('\n')}
`}
## 4. Where the kit's scheduler path spends its time

\`${profile.command}\` (the three world programs, kit side only): self time by area, then the top functions (${fmt(profile.totalMs)} ms sampled).

${profileTables(profile)}

${firstDetectionSection(first, { seeds: CONFIG.firstSeeds, cap: CONFIG.firstCap, jobs: cpus().length, minutes: (t5 - t4) / 60_000, quick: smoke, load: `${firstLoad} at start (${cpus().length} CPUs)` })}

## Goals vs measured

${goals(sched, rows, certs, campaign, CONFIG.cap, first, CONFIG.firstCap)}

## Reading the gaps

${gapNotes(sched, profile, rows, unmeasured)}
`
  writeFileSync(RESULTS, out)
  log(`wrote ${RESULTS} (${minutes(performance.now() - t0)})`)
}

function share(profile: ProfileSummary, area: string): string {
  const a = profile.areas.find((x) => x.area.startsWith(area))
  return a ? `${fmt(a.share * 100, 0)}%` : '0%'
}

function gapNotes(sched: readonly SchedulerRow[], profile: ProfileSummary, rows: readonly DetectRow[], unmeasured: readonly DetectRow[]): string {
  const world = sched.filter((r) => !r.program.startsWith('engine only'))
  const engine = sched.filter((r) => r.program.startsWith('engine only'))
  const lines: string[] = []
  lines.push(`- **Throughput.** On the world programs the kit runs at ${world.map((r) => `${fmt(r.ratio, 2)}×`).join(' / ')} fast-check's decisions per second (1 / 4 / 16 creates). Both sides run the same world and reference factory, which is most of the cost: in the profile the factory, core and world take ${share(profile, 'reference factory')} + ${share(profile, 'world')} of self time and GC ${share(profile, 'GC')}, against ${share(profile, 'kit scheduler')} for the kit's engine, strategy and log. So no scheduler change alone can reach 3× on these programs (Amdahl): even a free scheduler would leave the shared world cost. ` +
    `Engine only (no world), the kit runs at ${engine.map((r) => `${fmt(r.ratio, 2)}× (${fmt(r.cpuRatio, 2)}× by CPU time) on ${r.program.replace('engine only: ', '')}`).join(' and ')}: ${engine.map((r) => `${fmt(r.kit.usPerDecision, 1)} µs vs ${fmt(r.fc.usPerDecision, 1)} µs per decision`).join(', ')}. fast-check settles with up to 50 microtask ticks before each pick (a heuristic: work deeper than 50 ticks is not waited for); the kit takes one real macrotask turn, which is what guarantees every microtask has run, and pays fixed costs per run that fast-check does not.`)
  lines.push(`- **The kit's fixed per-run cost** is dominated by the virtual clock: installing and removing \`@sinonjs/fake-timers\` (${share(profile, 'virtual clock')} of self time here, plus part of the GC: every install builds a new fake \`Date\` class, \`Intl\` and \`performance\` object). What would close the gap on short runs: keep one fake clock installed across the runs of one exploration and reset it between runs (\`clock.reset()\` plus a check that no timer is left), instead of install/uninstall per run, and fake \`performance.now\` alone rather than copying the whole \`performance\` object. Both change a design rule (the clock is installed for a run and removed after it), so they are proposed here, not made.`)
  lines.push(`- **Per-decision cost** of the kit is the macrotask turn (a sound settle: it cannot be replaced by a bounded microtask drain without fast-check's blind spot), the \`async_hooks\` init hook on every promise (${share(profile, 'async_hooks')} here) and GC. On a loaded machine the turn also costs wall time, since each turn enters the event loop's poll phase, where the OS may switch to another process; fast-check's pure-microtask loop does not: compare the wall and CPU columns.`)
  const ordering = orderingMeasurements(rows)
  const best = ordering.map(({ row, m }) => ({ row, x: speedup(m) })).sort((a, b) => b.x - a.x)[0]
  const directedOnly = unmeasured.filter((r) => r.caughtByDirected).length
  lines.push(`- **Bug finding.** ${rows.filter((r) => r.main && !scheduleDependent(r.main)).length} of ${rows.filter((r) => r.main).length} measured mutants are exposed by every run of every strategy on their fixed program (a shrunk regression program, or the screening's best): there the strategy cannot matter, which is why schedule-sensitive programs are measured too. ` +
    (best ? `Where detection depends on the schedule (${ordering.length} mutants), the best kit strategy needs at most ${fmt(best.x, 2)}× fewer runs than fast-check's uniform pick (${best.row.catalog}, by detection rate). ` : 'No measured mutant has a schedule-dependent detection on its program. ') +
    `The programs are small (a few actors, tens of decisions), where uniform random reaches a racy interleaving often, and PCT's bound (1 / (n·k^(d−1)) per run) beats uniform random only when runs are long and the bug needs a specific deep ordering. Closing the gap needs programs aimed at each ordering bug that are long enough for uniform random to miss the window (more actors, more steps), measured on the saved regression program of each mutant. ` +
    (unmeasured.length === 0
      ? 'Every mutant of the gallery is detected by some simulated run (a trace checker sees what it breaks).'
      : `${unmeasured.length} mutants are detected by no simulated run at all (${directedOnly === unmeasured.length ? 'all caught by directed cases' : `${directedOnly} caught by directed cases, ${unmeasured.length - directedOnly} by nothing yet`}): the trace checkers or the generated programs miss what they break, the first gap to close in the simulated suite.`))
  lines.push(`- **Changes made in sim/ for speed** (tests and cross-process determinism unchanged; the trace hashes of 300 random programs and 16 directed programs × 10 seeds are identical before and after): (1) \`VirtualClock\` builds fake-timers' API with \`withGlobal(globalThis)\` once and reuses it while the real globals are unchanged, instead of once per run (about a fifth of a 1-create run); (2) \`TraceRecorder.add\` numbers the entry in place instead of copying it with a spread (same key order, same JSON and hash); (3) \`RunResult.hash\` is computed on first read: hashing serialises the whole trace, and certify and campaigns never read it for passing runs. Plus one injection point: \`runProgramWith(program, driver)\` with a \`RunDriver\` (a \`SchedulerPort\` that can also run the loop), which \`runProgram\` now calls with the kit's \`Scheduler\`.`)
  return lines.join('\n')
}

await main()
