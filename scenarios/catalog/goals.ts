/**
 * Trace queries for scenario goals. A goal reads the trace only: marks, events, appends, warnings
 * and operation invokes/outcomes, located by their index in the trace.
 * @module
 */
import type { EventName } from '../../core/contract.js'
import type { Trace, TraceEntry } from '../../sim/trace/trace.js'

/** A text pattern: a string matches as a substring, a RegExp by `test`. */
export type Pattern = string | RegExp

/** A predicate on one trace entry. */
export type Pred = (e: TraceEntry) => boolean

type Of<K extends TraceEntry['k']> = Extract<TraceEntry, { k: K }>

function like(text: string, p: Pattern): boolean {
  return typeof p === 'string' ? text.includes(p) : p.test(text)
}

/** A `mark` whose label matches (and, if given, whose transaction is `tx`). */
export function mark(label: Pattern, tx?: string): Pred {
  return (e) => e.k === 'mark' && like(e.label, label) && (tx === undefined || e.tx === tx)
}

/** A bus event by name (and session id, and detail such as a status or a message id). */
export function event(name: EventName, id?: string, detail?: Pattern): Pred {
  return (e) => e.k === 'event' && e.name === name && (id === undefined || e.id === id) && (detail === undefined || like(e.detail, detail))
}

/** A session append by session id and event type, optionally filtered on its data. */
export function append(id: string, type: string, data?: (data: any) => boolean): Pred {
  return (e) => e.k === 'append' && e.id === id && e.type === type && (data === undefined || data(e.data))
}

/** A warning whose message matches. */
export function warn(message: Pattern): Pred {
  return (e) => e.k === 'warn' && like(e.message, message)
}

/** A `resumed` entry (a session published with history) for `id`. */
export function resumed(id: string): Pred {
  return (e) => e.k === 'resumed' && e.id === id
}

/** Entries in world generation `world` (0 before the first restart). */
export function inWorld(world: number, pred: Pred): Pred {
  return (e) => 'world' in e && e.world === world && pred(e)
}

/** Both predicates. */
export function and(...preds: Pred[]): Pred {
  return (e) => preds.every((p) => p(e))
}

/** Index of the first entry at or after `from` matching `pred`, or -1. */
export function indexOf(trace: Trace, pred: Pred, from = 0): number {
  for (let i = Math.max(0, from); i < trace.entries.length; i++) if (pred(trace.entries[i]!)) return i
  return -1
}

/** Index of the last entry matching `pred`, or -1. */
export function lastIndexOf(trace: Trace, pred: Pred): number {
  for (let i = trace.entries.length - 1; i >= 0; i--) if (pred(trace.entries[i]!)) return i
  return -1
}

/** Whether some entry matches. */
export function has(trace: Trace, pred: Pred): boolean {
  return indexOf(trace, pred) >= 0
}

/** How many entries match. */
export function count(trace: Trace, pred: Pred): number {
  let n = 0
  for (const e of trace.entries) if (pred(e)) n++
  return n
}

/** Both happen, and the first `a` comes before the first `b`. */
export function before(trace: Trace, a: Pred, b: Pred): boolean {
  const i = indexOf(trace, a)
  const j = indexOf(trace, b)
  return i >= 0 && j >= 0 && i < j
}

/** `a`, then later `b`, then later `c` (each the first match after the previous one). */
export function sequence(trace: Trace, ...preds: Pred[]): boolean {
  let at = -1
  for (const p of preds) {
    at = indexOf(trace, p, at + 1)
    if (at < 0) return false
  }
  return true
}

/** One operation from its invoke to its outcome (`end` is `Infinity` while it never finished). */
export interface OpSpan {
  readonly invoke: Of<'invoke'>
  readonly outcome: Of<'outcome'> | undefined
  readonly start: number
  readonly end: number
}

/**
 * Operations whose actor is `actor` (any actor when `undefined`; inline operations have actor
 * `inline`) and whose description matches `what` (e.g. `create(s1)`, `dispose(s1)`, `unloadOwner(o1)`).
 */
export function spans(trace: Trace, actor: string | undefined, what: Pattern): OpSpan[] {
  const out: OpSpan[] = []
  const open = new Map<string, number>()
  trace.entries.forEach((e, i) => {
    if (e.k === 'invoke' && (actor === undefined || e.actor === actor) && like(e.what, what)) {
      open.set(`${e.actor}#${e.op}`, out.length)
      out.push({ invoke: e, outcome: undefined, start: i, end: Infinity })
    } else if (e.k === 'outcome') {
      const key = `${e.actor}#${e.op}`
      const at = open.get(key)
      if (at !== undefined) {
        out[at] = { ...out[at]!, outcome: e, end: i }
        open.delete(key)
      }
    }
  })
  return out
}

/** The first matching operation, if it ran. */
export function span(trace: Trace, actor: string | undefined, what: Pattern): OpSpan | undefined {
  return spans(trace, actor, what)[0]
}

/** The operation finished with `status` (and a detail matching `detail`). */
export function ended(s: OpSpan | undefined, status: 'ok' | 'fail' | 'info', detail?: Pattern): s is OpSpan & { readonly outcome: Of<'outcome'> } {
  return s?.outcome !== undefined && s.outcome.status === status && (detail === undefined || like(s.outcome.detail, detail))
}

/** Some entry matching `pred` lies strictly inside the span. */
export function within(trace: Trace, s: OpSpan | undefined, pred: Pred): boolean {
  if (!s) return false
  const i = indexOf(trace, pred, s.start + 1)
  return i >= 0 && i < s.end
}

/** Two operations were in flight at the same moment. */
export function overlap(a: OpSpan | undefined, b: OpSpan | undefined): boolean {
  return a !== undefined && b !== undefined && a.start < b.end && b.start < a.end
}

/** Index where the span's invocation happened, or -1. */
export function at(s: OpSpan | undefined): number {
  return s ? s.start : -1
}

/** The `[start, end)` of a create/resume's setup, by its transaction (marks `@setup:start`, `@setup:end`). */
export function setupWindow(trace: Trace, tx: string | undefined): { start: number; end: number } | undefined {
  if (tx === undefined) return undefined
  const start = indexOf(trace, mark('@setup:start', tx))
  if (start < 0) return undefined
  const end = indexOf(trace, mark('@setup:end', tx), start)
  return { start, end: end < 0 ? Infinity : end }
}

/** Every given create/resume was inside its setup at one moment (all started before any ended). */
export function allInSetup(trace: Trace, ops: readonly (OpSpan | undefined)[]): boolean {
  const windows = ops.map((s) => setupWindow(trace, s?.invoke.tx))
  if (windows.some((w) => w === undefined)) return false
  const lastStart = Math.max(...windows.map((w) => w!.start))
  const firstEnd = Math.min(...windows.map((w) => w!.end))
  return lastStart < firstEnd
}

/** Index `i` lies inside the setup of the operation `s`. */
export function inSetup(trace: Trace, s: OpSpan | undefined, i: number): boolean {
  const w = setupWindow(trace, s?.invoke.tx)
  return w !== undefined && i > w.start && i < w.end
}

/** Message ids (outcome details of input operations) by the operation kind that sent them. */
export function messageKinds(trace: Trace): Map<string, string> {
  const out = new Map<string, string>()
  for (const s of spans(trace, undefined, /^(followup|steer|inject|queue)\(/)) {
    if (s.outcome?.status === 'ok') out.set(s.outcome.detail, s.invoke.spec.op)
  }
  return out
}

/** The `agent/status` value of `id` just before index `i` (`undefined` when none was announced yet). */
export function statusAt(trace: Trace, id: string, i: number): string | undefined {
  let status: string | undefined
  for (let k = 0; k < i && k < trace.entries.length; k++) {
    const e = trace.entries[k]!
    if (e.k === 'event' && e.id === id && e.name === 'agent/status') status = e.detail
    if (e.k === 'event' && e.id === id && e.name === 'agent/disposed') status = undefined
  }
  return status
}

/** `turn/end` reason kinds (and the aborted cause kind, as `aborted:user`) of session `id`. */
export function turnEndings(trace: Trace, id: string): string[] {
  const out: string[] = []
  for (const e of trace.entries) {
    if (e.k !== 'append' || e.id !== id || e.type !== 'turn/end') continue
    const reason = (e.data as { reason?: { kind?: string; reason?: { kind?: string } } | null }).reason
    out.push(reason?.kind === 'aborted' ? `aborted:${reason.reason?.kind ?? '?'}` : reason?.kind ?? 'null')
  }
  return out
}

/** A durable cancellation splice (`outcome: 'canceled'`) of session `id`. */
export function canceledSplice(id: string): Pred {
  return (e) => e.k === 'append' && e.id === id && e.type === 'agent/inbox/spliced' && (e.data as { outcome?: string } | null)?.outcome === 'canceled'
}

/** Pending inbox items of `id` just before index `i`, counted from inserted/discarded/claimed notifications. */
export function pendingAt(trace: Trace, id: string, i: number): number {
  let n = 0
  for (let k = 0; k < i && k < trace.entries.length; k++) {
    const e = trace.entries[k]!
    if (e.k !== 'event' || e.id !== id) continue
    if (e.name === 'agent/inbox/inserted') n++
    if (e.name === 'agent/inbox/discarded' || e.name === 'agent/inbox/claimed') n--
    if (e.name === 'agent/disposed') n = 0
  }
  return n
}
