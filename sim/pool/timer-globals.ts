/**
 * The timer globals a worker's kit code relies on, kept the kit's across an adapter's load. A module
 * that replaces them when it loads (fake timers installed for good, no-op `setTimeout`) would stop
 * the simulator's real turns, the directed cases' real timers and every watchdog reading them; the
 * worker puts the real ones back after the load and says which were replaced. The simulator still
 * fakes them itself, per run (`sim/world/clock.ts`).
 * @module
 */

const NAMES = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'Date', 'performance'] as const

/** Run `load`; put back every timer global it replaced, and return their names with its value. */
export async function keepTimerGlobals<T>(load: () => Promise<T>): Promise<{ value: T; replaced: string[] }> {
  const g = globalThis as unknown as Record<string, unknown>
  const real = new Map(NAMES.map((name) => [name, g[name]]))
  const hrtime = process.hrtime
  try {
    const value = await load()
    return { value, replaced: [...NAMES.filter((name) => g[name] !== real.get(name)), ...(process.hrtime === hrtime ? [] : ['process.hrtime'])] }
  } finally {
    process.hrtime = hrtime
    for (const [name, fn] of real) {
      if (g[name] !== fn) {
        try {
          g[name] = fn
        } catch {
          Object.defineProperty(globalThis, name, { value: fn, writable: true, configurable: true })
        }
      }
    }
  }
}
