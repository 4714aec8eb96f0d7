/**
 * Where the kit's scheduler path spends its time: `node --cpu-prof` on the scheduler benchmark
 * (kit side only), summarised as the top self-time functions and self time per area.
 *
 * Run alone: `npm run build --silent && node dist/bench/profile.js`
 * @module
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchModule, fmt, isMain, node, table } from './common.js'

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: readonly number[]
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[]
  readonly samples: readonly number[]
  readonly timeDeltas: readonly number[]
}

/** One function's self time. */
export interface SelfTime {
  readonly fn: string
  readonly where: string
  readonly area: string
  readonly ms: number
  readonly share: number
}

/** The summary of one profile. */
export interface ProfileSummary {
  readonly command: string
  readonly totalMs: number
  readonly top: readonly SelfTime[]
  readonly areas: readonly { readonly area: string; readonly ms: number; readonly share: number }[]
}

function shortUrl(url: string): string {
  const main = url.indexOf('/dist/')
  if (main >= 0) return url.slice(main + '/dist/'.length)
  const nm = url.lastIndexOf('/node_modules/')
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length)
  return url.replace(/^file:\/\//, '')
}

/** Which part of the system a frame belongs to. */
export function areaOf(fn: string, url: string): string {
  if (fn === '(garbage collector)') return 'GC'
  if (fn === '(idle)') return 'idle'
  if (fn === '(program)') return 'V8/native (program)'
  const u = shortUrl(url)
  if (u.startsWith('sim/engine/') || u.startsWith('sim/strategies/') || u === 'sim/trace/decision-log.js' || u === 'sim/streams.js' || u === 'sim/alea.js' || u.includes('seedrandom')) return 'kit scheduler (engine, strategy, log, rng)'
  if (u === 'sim/world/clock.js' || u.includes('@sinonjs/fake-timers')) return 'virtual clock (fake-timers install/uninstall)'
  if (u.startsWith('sim/')) return 'world (sim: world, operations, behaviours, trace)'
  if (u.startsWith('core/')) return 'reference factory and core'
  if (u.includes('fast-check')) return 'fast-check'
  if (u.startsWith('bench/')) return 'bench harness'
  if (u.startsWith('node:internal/async_hooks') || u === 'node:async_hooks') return 'async_hooks (process watch)'
  if (u.startsWith('node:internal/timers') || u.startsWith('node:timers')) return 'node timers (settle turns)'
  if (u.startsWith('node:internal/abort_controller') || u.startsWith('node:internal/event_target')) return 'AbortController/EventTarget'
  if (u.startsWith('node:')) return 'node (other)'
  return u === '' ? 'V8 builtins' : 'other'
}

/** Summarise a `.cpuprofile`. */
export function summarise(profile: CpuProfile, command: string, top = 20): ProfileSummary {
  const self = new Map<number, number>()
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0))
  const byFn = new Map<string, { fn: string; where: string; area: string; us: number }>()
  const byArea = new Map<string, number>()
  let total = 0
  for (const n of profile.nodes) {
    const us = self.get(n.id) ?? 0
    if (us === 0) continue
    total += us
    const fn = n.callFrame.functionName || '(anonymous)'
    const where = n.callFrame.url ? `${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}` : ''
    const area = areaOf(fn, n.callFrame.url)
    const key = `${fn} ${where}`
    const entry = byFn.get(key) ?? { fn, where, area, us: 0 }
    entry.us += us
    byFn.set(key, entry)
    byArea.set(area, (byArea.get(area) ?? 0) + us)
  }
  return {
    command,
    totalMs: total / 1000,
    top: [...byFn.values()].sort((a, b) => b.us - a.us).slice(0, top).map((e) => ({ fn: e.fn, where: e.where, area: e.area, ms: e.us / 1000, share: e.us / total })),
    areas: [...byArea].sort((a, b) => b[1] - a[1]).map(([area, us]) => ({ area, ms: us / 1000, share: us / total })),
  }
}

/** Profile the kit side of the scheduler benchmark in a child process. */
export async function profileScheduler(): Promise<ProfileSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-prof-'))
  try {
    const args = ['--cpu-prof', '--cpu-prof-dir', dir, benchModule('scheduler'), '--only', 'kit', '--reps', '3']
    await node(args)
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
    if (!file) throw new Error(`no .cpuprofile written in ${dir}`)
    const command = `node --cpu-prof dist/bench/scheduler.js --only kit --reps 3`
    return summarise(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, command)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The profile as two markdown tables: areas, then the top functions. */
export function profileTables(summary: ProfileSummary): string {
  const areas = table(['area', 'self ms', 'share'], summary.areas.map((a) => [a.area, fmt(a.ms), `${fmt(a.share * 100, 1)}%`]))
  const top = table(['function', 'where', 'area', 'self ms', 'share'], summary.top.map((t) => [`\`${t.fn}\``, t.where, t.area, fmt(t.ms), `${fmt(t.share * 100, 1)}%`]))
  return `${areas}\n\nTop self-time functions:\n\n${top}`
}

if (isMain(import.meta.url)) {
  console.log(profileTables(await profileScheduler()))
}
