/**
 * Boundaries that await an unload of their own process which another chain had already started
 * (D69). §8 makes disposal memoized and releases "the *current* async chain's run" so that "a
 * boundary whose chain itself started the unload must not wait on itself"; it does not say whether
 * a later call that joins the memoized disposal releases its own chain too. Under the reading that
 * it does not, such a boundary is drained by the very unload it awaits: the program's own deadlock
 * (as awaiting one's own disposal is), so §9 137 and the unload's settling (98) are declined there,
 * under a reason that names §8.
 *
 * Joining is read from the invokes: a `shutdown` or `restart` of process `w` invoked while another
 * one of `w` was in flight (the world joins a second restart to the first; the registry's disposal
 * is memoized for a shutdown).
 * @module
 */
import type { TraceEntry } from '../../sim/trace/trace.js'
import type { Analysis } from './analysis.js'
import { Derived, entriesOf } from './analysis.js'

type Invoke = Extract<TraceEntry, { k: 'invoke' }>

const PROCESS_UNLOADS = new Set(['shutdown', 'restart'])

/**
 * An invoke's or outcome's operation, nested ones apart: the operations a boundary nests share its
 * actor and op number, and differ in `what` (which `windowsOf`, keyed without it, does not tell).
 */
export const operationKey = (e: { world: number; actor: string; op: number; what: string }): string => `${e.world}/${e.actor}/${e.op}/${e.what}`

/** The nested unload invokes (inside a boundary, never ended) that joined another chain's unload in flight (computed once per analysis). */
export function joinedUnloads(a: Analysis): Invoke[] {
  return JOINED.of(a)
}

const JOINED = new Derived((a: Analysis): Invoke[] => {
  const endedAt = new Map<string, number>()
  for (const e of entriesOf(a, 'outcome')) if (!endedAt.has(operationKey(e))) endedAt.set(operationKey(e), e.i)
  const out: Invoke[] = []
  const inFlight: Invoke[] = []
  for (const e of entriesOf(a, 'invoke')) {
    if (!PROCESS_UNLOADS.has(e.spec.op)) continue
    const nested = e.what.includes(' in ')
    if (nested && !endedAt.has(operationKey(e)) && inFlight.some((x) => x.world === e.world && (endedAt.get(operationKey(x)) ?? Infinity) > e.i)) out.push(e)
    inFlight.push(e)
  }
  return out
})
