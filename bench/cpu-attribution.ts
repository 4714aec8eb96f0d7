/**
 * Who spends a process's CPU: the code under test, or the kit. Reads the `.cpuprofile` files
 * `node --cpu-prof` writes (one per thread: the main thread and each worker) and charges every
 * sample to an **owner** by its stack:
 *
 * - the leaf frame's own module when it is one of ours (`dist/...`) or a package's;
 * - else (a V8 builtin, a Node internal such as `AbortController` or `structuredClone`) the
 *   nearest caller that is one of ours or a package's, so a builtin is charged to whoever called it;
 * - except `async_hooks` frames, which are the kit's process watch whoever created the promise
 *   (but not `callbackTrampoline`, Node's entry into every async callback while a hook is on),
 *   Node's immediate queue, which runs the engine's settle turns, and `(garbage collector)` and
 *   `(program)`, which are the kit's by convention (GC and Node's own work count as the kit's).
 *
 * The code under test is `core/` (the reference factory and its runtime) and, for an external
 * adapter, its own files and packages (`adapters/...`, its `node_modules`); everything else is the
 * kit. `(idle)` samples are left out. Sample times are wall time spent on a thread that was not
 * idle: on a loaded machine a descheduled thread's wait is charged to the function it was in, so
 * shares, not sample milliseconds, are what this module reports (multiply by a measured CPU time).
 * @module
 */

/** A `.cpuprofile` (the fields read here). */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
    readonly children?: readonly number[]
  }[]
  readonly samples: readonly number[]
  readonly timeDeltas: readonly number[]
}

/** The parts of the kit and of the code under test a sample is charged to. */
export const AREAS = {
  cut: 'code under test (core/, the factory and runtime)',
  adapter: 'code under test (adapter and its packages)',
  generation: 'kit: program generation (arbitraries, fast-check)',
  coverage: 'kit: coverage of programs',
  checkers: 'kit: checkers (and scenario goals)',
  world: 'kit: world (world, operations, behaviours, trace, run)',
  scheduler: 'kit: scheduler (engine, strategies, decision log, rng)',
  watch: 'kit: process watch (async_hooks)',
  clock: 'kit: virtual clock (fake-timers)',
  campaign: 'kit: campaign (seeds, ledger, pool, messages)',
  gc: 'kit: GC',
  other: 'kit: other (V8, Node, module loading)',
} as const

/** An area's key. */
export type Area = keyof typeof AREAS

/** Whether an area is the code under test's. */
export function isCodeUnderTest(area: Area): boolean {
  return area === 'cut' || area === 'adapter'
}

/** The module path of a frame's URL relative to the built tree (`core/root.js`), or a package's (`fast-check/...`), or `undefined` for Node internals and builtins. */
function modulePath(url: string): string | undefined {
  if (url === '' || url.startsWith('node:')) return undefined
  const nm = url.lastIndexOf('/node_modules/')
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length)
    // An adapter's own dependencies live in its folder's node_modules.
    return url.slice(0, nm).includes('/adapters/') ? `adapters/${rest}` : rest
  }
  const dist = url.lastIndexOf('/dist/')
  if (dist >= 0) return url.slice(dist + '/dist/'.length)
  const adapters = url.lastIndexOf('/adapters/')
  if (adapters >= 0) return url.slice(adapters + 1)
  return url
}

/** The area of a module path (see {@link modulePath}). */
export function areaOfModule(path: string): Area {
  if (path.startsWith('core/')) return 'cut'
  if (path.startsWith('adapters/')) return 'adapter'
  if (path.startsWith('scenarios/arbitraries/coverage')) return 'coverage'
  if (path.startsWith('scenarios/arbitraries/') || path === 'scenarios/campaign/draw.js' || path.startsWith('fast-check/') || path.startsWith('pure-rand/')) return 'generation'
  if (path.startsWith('conformance/checkers/') || path === 'scenarios/catalog/goals.js') return 'checkers'
  if (path.startsWith('sim/engine/process-watch')) return 'watch'
  if (path.startsWith('sim/engine/') || path.startsWith('sim/strategies/') || path === 'sim/trace/decision-log.js' || path === 'sim/streams.js' || path === 'sim/alea.js' || path.startsWith('seedrandom/')) return 'scheduler'
  if (path === 'sim/world/clock.js' || path.startsWith('@sinonjs/fake-timers/')) return 'clock'
  if (path.startsWith('scenarios/campaign') || path.startsWith('sim/pool/')) return 'campaign'
  if (path.startsWith('sim/')) return 'world'
  // Other kit modules (conformance adapters, scenario catalog, the CLI) and the rest.
  return 'other'
}

/** Milliseconds of non-idle samples per area, over one or more profiles. */
export type Attribution = Record<Area, number>

/** An empty attribution. */
export function emptyAttribution(): Attribution {
  return Object.fromEntries(Object.keys(AREAS).map((k) => [k, 0])) as Attribution
}

/** Charge every non-idle sample of `profile` to an area (adds into `into`). */
export function attribute(profile: CpuProfile, into: Attribution = emptyAttribution()): Attribution {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const areaOfNode = new Map<number, Area | null>()
  const resolve = (id: number): Area | null => {
    const cached = areaOfNode.get(id)
    if (cached !== undefined) return cached
    const node = byId.get(id)!
    const { functionName: fn, url } = node.callFrame
    let area: Area | null
    if (fn === '(idle)') area = null
    else if (fn === '(garbage collector)') area = 'gc'
    else if (fn === '(program)' || fn === '(root)') area = 'other'
    else if ((url === 'node:async_hooks' || url.startsWith('node:internal/async_hooks')) && fn !== 'callbackTrampoline') area = 'watch'
    // The real macrotask turn the engine takes to settle the process between two decisions.
    else if (fn === 'processImmediate' && url === 'node:internal/timers') area = 'scheduler'
    else {
      const path = modulePath(url)
      if (path !== undefined) area = areaOfModule(path)
      else {
        const up = parent.get(id)
        area = up === undefined ? 'other' : resolve(up) ?? 'other'
      }
    }
    areaOfNode.set(id, area)
    return area
  }
  for (let i = 0; i < profile.samples.length; i++) {
    const area = resolve(profile.samples[i]!)
    if (area !== null) into[area] += (profile.timeDeltas[i] ?? 0) / 1000
  }
  return into
}

/** Non-idle milliseconds of an attribution. */
export function busyMs(a: Attribution): number {
  return Object.values(a).reduce((s, x) => s + x, 0)
}

/** The code under test's share of an attribution's non-idle time. */
export function codeUnderTestShare(a: Attribution): number {
  const busy = busyMs(a)
  return busy === 0 ? 0 : (Object.keys(a) as Area[]).filter(isCodeUnderTest).reduce((s, k) => s + a[k], 0) / busy
}
