/**
 * What an owner's trigger must and must not do to a creation or a live agent:
 * - an owner unload or a signal abort during publication stops it: no `agent/session-start`
 *   after it, and the creation rejects (§3.1 steps 9–10; §9 60, 61);
 * - an owner unload before setup started (even from inside the scope minting) means setup never
 *   runs (§3.5 note; §9 104);
 * - aborting the creation signal after the handle resolved tears nothing down (§3.3; §9 68);
 * - after `handle.dispose()` began no new turn opens (§7.2 step 4; §9 107);
 * - after `handle.dispose()` resolved the owner fiber holds no lifecycle effect for that id
 *   beyond those of other creations still using it (§5.1 step 7; §9 99);
 * - a resumed agent carries its whole persisted history (§3.1 R3; §9 43).
 * @module
 */
import type { TraceEntry } from '../../sim/trace/trace.js'
import type { Analysis, Life, Tx } from './analysis.js'
import { abortsCreation, entriesOf, sameVerdict } from './analysis.js'
import { R } from './declines.js'
import { ownerOf } from './facts.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import type { OpWindow } from './windows.js'
import { sessionOf, teardownRequest, windowsOf } from './windows.js'

type Mark = Extract<TraceEntry, { k: 'mark' }>

/** The invokes in `tx`'s world that abort its creation: its owner unloading, its signal aborting. */
function creationAborts(windows: readonly OpWindow[], tx: Tx, from: number, to: number): OpWindow[] {
  return windows.filter((w) => w.invoke.i > from && w.invoke.i < to && abortsCreation(w.invoke, tx))
}

function describe(w: OpWindow): string {
  return w.spec.op === 'unloadOwner' ? `owner "${w.spec.owner}" began unloading` : w.spec.op === 'abortSignal' ? `its signal "${w.spec.signal}" was aborted` : w.spec.op
}

/** Whether the operation invoked at entry `i` was performed by a listener of `agent/session-start` (its mark says so). */
function startListener(a: Analysis, i: number): boolean {
  const mark = a.entries[i - 1]
  return mark?.k === 'mark' && / listener:agent\/session-start op$/.test(mark.label)
}

/** Check owner triggers against creations and live agents. */
export function checkTriggers(a: Analysis): Violation[] {
  const out: Violation[] = []
  const d = a.declines
  // The operations that can abort a creation, and each creation's setup-start mark, indexed once:
  // a livelock's trace holds thousands of creations and tens of thousands of entries.
  const windows = windowsOf(a)
  const aborting = windows.filter((w) => w.spec.op === 'unloadOwner' || w.spec.op === 'abortSignal')
  const marks = entriesOf(a, 'mark')
  const setupStarts = new Map<string, Mark>()
  for (const m of marks) if (m.tx !== undefined && m.label.endsWith('@setup:start') && !setupStarts.has(m.tx)) setupStarts.set(m.tx, m)
  for (const tx of a.txs.values()) {
    const life = tx.life
    // 104: setup never starts after the owner began unloading.
    const setupStart = setupStarts.get(tx.tx)
    if (setupStart) {
      const unload = creationAborts(aborting, tx, tx.invoke.i, setupStart.i).find((w) => w.spec.op === 'unloadOwner')
      if (unload) out.push(violation('AGENT-TEARDOWN-TEST', 104, `"${tx.id}": setup of ${tx.actor}:${tx.spec.op} started after ${describe(unload)}`, setupStart))
    }
    if (!life) continue
    // 60: no agent/session-start after the creation was aborted. When the trace cannot tell which of
    // several same-id creations published (none committed, none settled), only if each was aborted.
    if (life.sessionStart) {
      const start = life.sessionStart.i
      const abort = creationAborts(aborting, tx, tx.invoke.i, start)[0]
      if (!sameVerdict(life, (t) => creationAborts(aborting, t, t.invoke.i, start).length > 0)) d.declined(60, R.publisher)
      else d.judged(60)
      if (abort && life.alsoPossible.every((other) => creationAborts(aborting, other, other.invoke.i, start).length > 0)) out.push(violation('AGENT-SCOPE-LIFECYCLE', 60, `"${tx.id}": agent/session-start fired after ${describe(abort)} during its publication`, life.sessionStart))
    }
    // 61: and the creation rejects.
    if (tx.outcome?.status === 'ok') {
      // The outcome is recorded when the caller's continuation runs, possibly after work the
      // session-start listeners started asynchronously (a maintenance, then a driver). Only a
      // trigger pulled before session-start, or by a listener of session-start itself, certainly
      // came before the last liveness check (§3.1 step 10).
      const aborts = creationAborts(aborting, tx, tx.invoke.i, tx.outcome.i)
      const abort = aborts.find((w) => !life.sessionStart || w.invoke.i < life.sessionStart.i || startListener(a, w.invoke.i))
      // (a trigger after session-start may have come after the last liveness check, which is not known)
      if (!abort && aborts.length > 0) d.declined(61, R.creationSettled)
      else d.judged(61)
      if (abort) out.push(violation('AGENT-SCOPE-LIFECYCLE', 61, `"${tx.id}": ${tx.spec.op} resolved although ${describe(abort)} before it settled`, tx.outcome))
    }
    // 68: the creation signal is creation-only.
    const signal = 'signal' in tx.spec ? tx.spec.signal : undefined
    if (tx.outcome?.status === 'ok' && signal !== undefined && life.agentDisposed && !life.agentDisposed.stale) {
      const abort = aborting.find((w) => w.world === tx.world && w.spec.op === 'abortSignal' && w.spec.signal === signal && w.invoke.i > tx.outcome!.i && w.invoke.i < life.agentDisposed!.i)
      const request = abort ? teardownRequest(a, life, life.agentDisposed.i) : undefined
      if (abort && request === undefined) {
        d.judged(68)
        out.push(violation('AGENT-SCOPE-LIFECYCLE', 68, `"${tx.id}": aborting its creation signal "${signal}" after ${tx.spec.op} resolved tore the agent down`, life.agentDisposed))
      } else if (abort && request && !a.facts.present) {
        d.declined(68, R.teardownReach)
      } else if (abort && request) {
        // A teardown request came later and explains the disposal, unless the teardown had begun
        // before it: its disposed abort reached the agent's activity between the signal's abort and
        // the first request (a cancel with the disposed cause aside). Otherwise both readings agree.
        d.judged(68)
        const cancels = windows.filter((w) => w.world === tx.world && w.spec.op === 'cancel' && w.spec.session === tx.id && w.spec.cause === 'disposed')
        const early = a.facts.aborts.find((f) => f.world === tx.world && f.id === tx.id && f.kind === 'disposed' && f.at > abort.invoke.i && f.at <= request.invoke.i
          && !cancels.some((w) => w.invoke.i < f.at))
        if (early) out.push(violation('AGENT-SCOPE-LIFECYCLE', 68, `"${tx.id}": aborting its creation signal "${signal}" after ${tx.spec.op} resolved began its teardown: its activity was aborted as disposed at decision ${early.d}, before any teardown request (${request.invoke.what} at decision ${request.invoke.d})`, { i: early.at, d: early.d }))
      }
    }
    // 43: a resume carries the persisted history.
    // (the disk at the invocation, superseded by the last load of that id before the publication:
    // the disk as this resume read it)
    // (a mark with another creation's tx is that one's invocation; a load's mark names no tx, and
    // with two resumes of one id in flight either may be this one's: the smallest disk it may have read)
    const persisted = tx.spec.op === 'resume'
      ? marks.filter((m) => m.world === tx.world && m.i >= tx.invoke.i && m.i < life.sessionCreated.i && (m.tx === undefined || m.tx === tx.tx) && m.label.startsWith(`resume:${tx.id} persisted=`))
      : []
    if (persisted.length > 0 && tx.outcome?.status === 'ok') {
      const loads = persisted.filter((m) => m.tx === undefined)
      const n = Math.min(...(loads.length > 0 ? loads : persisted.slice(-1)).map((m) => Number(m.label.slice(m.label.lastIndexOf('=') + 1))))
      const resumed = a.entries.find((e) => e.k === 'resumed' && e.world === tx.world && e.id === tx.id && e.i > life.sessionCreated.i)
      const length = resumed?.k === 'resumed' && (!life.sessionDisposed || resumed.i < life.sessionDisposed.i) ? resumed.events.length : 0
      // A load that reads an empty disk leaves no mark, so with another resume of the id loading
      // meanwhile every load mark may be that one's: nothing says what this one read.
      const rival = [...a.txs.values()].some((o) => o !== tx && o.world === tx.world && o.id === tx.id && o.spec.op === 'resume' && o.invoke.i < life.sessionCreated.i && (!o.outcome || o.outcome.i > tx.invoke.i))
      if (length < n && rival && loads.length > 0) d.declined(43, R.loadServed)
      else d.judged(43)
      if (length < n && !(rival && loads.length > 0)) out.push(violation('AGENT-CREATE-RESUME', 43, `"${tx.id}": resumed with ${length} events although ${n} were persisted`, life.sessionCreated))
    }
  }
  // 107: no turn opens after handle.dispose() began.
  const handles = windows.filter((w) => (w.spec.op === 'create' || w.spec.op === 'resume') && w.outcome?.status === 'ok')
  for (const w of windows) {
    if (w.spec.op !== 'dispose' || w.outcome?.status === 'info') continue
    const at = w.invoke.i
    const session = w.spec.session
    // (the handle's agent names its creation; without facts, the latest handle of the id is taken)
    const held = ownerOf(a.facts, at)
    const owner = held !== undefined ? handles.find((h) => h.invoke.i === held) : handles.filter((h) => h.world === w.world && sessionOf(h.spec) === session && h.outcome!.i < at).at(-1)
    const life = owner?.invoke.tx ? a.txs.get(owner.invoke.tx)?.life : undefined
    if (!life || life.sessionCreated.i > at || (life.sessionDisposed && life.sessionDisposed.i < at)) {
      // (with facts, the handle's lifecycle is known: one already gone constrains nothing; without,
      // a lifecycle of the id live at the dispose that opened a turn after it may be the handle's)
      if (held !== undefined && owner !== undefined) {
        d.judged(107)
        continue
      }
      const live = a.lives.find((l) => l.world === w.world && l.id === session && l.sessionCreated.i < at && (!l.sessionDisposed || l.sessionDisposed.i > at))
      if (live?.appends.some((x) => x.i > at && x.type === 'turn/start')) d.declined(107, R.disposedHandle)
      continue
    }
    d.judged(107)
    const opened = life.appends.find((x) => x.i > at && x.type === 'turn/start')
    if (opened) out.push(violation('AGENT-TEARDOWN-TEST', 107, `"${life.id}": turn/start appended after handle.dispose() began`, opened))
  }
  // 99: after dispose resolved, the owner keeps lifecycle effects only for other creations of that id.
  // A creation that failed during construction (before its setup started: its signal aborted while
  // the scope was minted, say) rejects at once while its provisional scope is torn down in the
  // background, and the owner effect awaits that (§3.3): the trace does not show when, so it may
  // still be in use.
  for (const m of marks) {
    const match = /^owner (\S+) keeps (\d+) agentLoop\.lifecycle\((.*)\) after dispose$/.exec(m.label)
    if (!match) continue
    const [, owner, count, id] = match
    const constructing = (tx: Tx): boolean => tx.outcome?.status === 'fail' && tx.life === undefined && !setupStarts.has(tx.tx)
    const holding = [...a.txs.values()].filter((tx) => tx.world === m.world && tx.owner === owner && tx.id === id && tx.invoke.i < m.i &&
      (!tx.outcome || tx.outcome.i > m.i || (tx.outcome.status === 'ok' && tx.life !== undefined && (!tx.life.sessionDisposed || tx.life.sessionDisposed.i > m.i)) || constructing(tx)))
    const inUse = holding.length
    // (a creation that failed during construction may still hold it while its scope unwinds in the background)
    if (Number(count) > holding.filter((tx) => !constructing(tx)).length && Number(count) <= inUse) d.declined(99, R.backgroundTeardown)
    else d.judged(99)
    if (Number(count) > inUse) out.push(violation('AGENT-TEARDOWN-TEST', 99, `"${id}": after handle.dispose() resolved, owner "${owner}" still holds ${count} agentLoop.lifecycle(${id}) effect(s) (${inUse} in use)`, m))
  }
  return out
}
