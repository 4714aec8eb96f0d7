/**
 * What V8's optimizing compiler did in one process, read from the text `node --trace-opt
 * --trace-deopt` prints (V8 11 and 12): the functions TurboFan compiled, how often each, the compile
 * time V8 reports for each compile, and the deoptimizations (optimized code thrown away: the
 * function runs unoptimized again, and is compiled again once hot).
 *
 * Compile times are V8's own timing of each compile's phases (prepare, execute on a background
 * thread, finalize): elapsed time, so on a loaded machine they include waits for a core. Counts do
 * not; they vary a little from run to run with when each background compile finishes.
 * @module
 */

/** One compiled function (a name and its `SharedFunctionInfo`, so two closures of one function are one). */
export interface CompiledFunction {
  readonly name: string
  readonly compiles: number
  /** Compile time V8 reports over all its compiles, ms. */
  readonly ms: number
  /** Of it, the compiles after the first. */
  readonly recompileMs: number
}

/** A process's JIT work. */
export interface JitFigures {
  /** Optimizing compiles that completed (TurboFan, OSR included). */
  readonly compiles: number
  /** Distinct functions compiled. */
  readonly functions: number
  /** Functions compiled more than once. */
  readonly recompiled: number
  /** Compiles of a function after its first. */
  readonly recompiles: number
  /** Compile time V8 reports, ms, and the part spent compiling functions again. */
  readonly compileMs: number
  readonly recompileMs: number
  /** Deoptimizations, by kind (`deopt-eager`, `deopt-lazy`, `deopt-soft`, …) and by reason. */
  readonly deopts: number
  readonly deoptsByKind: Readonly<Record<string, number>>
  readonly deoptsByReason: Readonly<Record<string, number>>
  /** Functions by compile time spent compiling them again, highest first. */
  readonly byRecompileMs: readonly CompiledFunction[]
}

// `[completed compiling 0x… <JSFunction name (sfi = 0x…)> (target TURBOFAN) OSR - took 0.018, 0.739, 0.011 ms]`
const COMPILED = /^\[completed compiling 0x[0-9a-f]+ <JSFunction (.*?) ?\(sfi = (0x[0-9a-f]+)\)> \(target TURBOFAN\)(?: OSR)? - took ([\d.]+), ([\d.]+), ([\d.]+) ms\]/
// `[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x… <JSFunction name (sfi = 0x…)>, …`
const BAILOUT = /^\[bailout \(kind: ([^,]+), reason: (.*?)\): begin\. deoptimizing/

/** Read the JIT's work from `--trace-opt --trace-deopt` output (other lines are ignored). */
export function parseJitTrace(text: string): JitFigures {
  const byFunction = new Map<string, { name: string; compiles: number; ms: number; first: number }>()
  const deoptsByKind: Record<string, number> = {}
  const deoptsByReason: Record<string, number> = {}
  let compiles = 0
  let deopts = 0
  for (const line of text.split('\n')) {
    const compiled = COMPILED.exec(line)
    if (compiled) {
      compiles++
      const [, name, sfi, a, b, c] = compiled
      const ms = Number(a) + Number(b) + Number(c)
      const key = `${name}@${sfi}`
      const f = byFunction.get(key)
      if (f) {
        f.compiles++
        f.ms += ms
      } else byFunction.set(key, { name: name || '(anonymous)', compiles: 1, ms, first: ms })
      continue
    }
    const bailout = BAILOUT.exec(line)
    if (bailout) {
      deopts++
      const [, kind, reason] = bailout
      deoptsByKind[kind!] = (deoptsByKind[kind!] ?? 0) + 1
      deoptsByReason[reason!] = (deoptsByReason[reason!] ?? 0) + 1
    }
  }
  const functions = [...byFunction.values()]
  const again = functions.filter((f) => f.compiles > 1)
  const compileMs = functions.reduce((s, f) => s + f.ms, 0)
  const recompileMs = again.reduce((s, f) => s + f.ms - f.first, 0)
  return {
    compiles, functions: functions.length, recompiled: again.length,
    recompiles: again.reduce((s, f) => s + f.compiles - 1, 0),
    compileMs, recompileMs, deopts, deoptsByKind, deoptsByReason,
    byRecompileMs: again.map((f) => ({ name: f.name, compiles: f.compiles, ms: f.ms, recompileMs: f.ms - f.first })).sort((x, y) => y.recompileMs - x.recompileMs),
  }
}
