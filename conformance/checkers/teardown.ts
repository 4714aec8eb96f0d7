/**
 * AGENT-TEARDOWN-TEST: rollback and teardown order (scope disposal → agent/disposed →
 * session/disposed, after the driver's last turn closed), one shared teardown whose every owner
 * resolves only after it completed, pairing before a rejection, and no append after detach.
 * @module
 */
import type { TraceEntry } from '../../sim/trace/trace.js'
import type { Analysis, Life } from './analysis.js'
import { entriesOf, keyOf, sameVerdict } from './analysis.js'
import { R } from './declines.js'
import { ownerOf } from './facts.js'
import { dedupe } from './atomic.js'
import { violation } from './violation.js'
import { invokeOfOutcome } from './windows.js'
import type { Violation } from './violation.js'

const GROUP = 'AGENT-TEARDOWN-TEST'

/** Whether a lifecycle is fully closed before entry index `at`. */
function closedBefore(life: Life, at: number): boolean {
  if (life.sessionDisposed === undefined || life.sessionDisposed.i > at) return false
  return !life.agentCreated || (life.agentDisposed !== undefined && life.agentDisposed.i < at)
}

/** Check teardown and rollback. */
export function checkTeardown(a: Analysis): Violation[] {
  const out: Violation[] = []
  const d = a.declines
  const scopeDisposals = new Map<string, number[]>()
  for (const e of entriesOf(a, 'mark')) {
    // (every disposer action marks its run, a `block` one too: it returns at once)
    if (e.tx && / effect:.* (throw|reject|slow|op|block|wait)$/.test(e.label)) scopeDisposals.set(e.tx, [...(scopeDisposals.get(e.tx) ?? []), e.i])
  }
  for (const life of a.lives) {
    const { id } = life
    d.judged(96)
    // §3.6 rule 4 / 96: agent/disposed precedes session/disposed.
    if (life.agentDisposed && life.sessionDisposed && life.sessionDisposed.i < life.agentDisposed.i) {
      out.push(violation(GROUP, 96, `"${id}": session/disposed before agent/disposed`, life.sessionDisposed))
    }
    if (life.agentCreated && life.sessionDisposed && !life.agentDisposed) {
      out.push(violation(GROUP, 96, `"${id}": agent/created was delivered but the lifecycle ended without agent/disposed`, life.sessionDisposed))
    }
    // 97: at agent/disposed the session is still stored.
    if (life.agentDisposed && !life.agentDisposed.snap.sessions.includes(id)) {
      out.push(violation(GROUP, 97, `"${id}": the session was already gone at agent/disposed`, life.agentDisposed))
    }
    // 97 / §5.3: the scope (agent-scoped registrations) unwinds before the registry edges.
    const firstEdge = life.agentDisposed ?? life.sessionDisposed
    const scope = life.tx ? scopeDisposals.get(life.tx.tx) ?? [] : []
    const late = scope.find((i) => firstEdge !== undefined && i > firstEdge.i)
    if (firstEdge) {
      if (!life.tx) d.declined(97, R.noCreation)
      else d.judged(97)
    }
    if (firstEdge && late !== undefined) out.push(violation(GROUP, 97, `"${id}": an agent-scoped registration was disposed after ${firstEdge.name} (scope disposal must come first)`, a.entries[late]))
    // 97 / 105: the driver's last turn closes before agent/disposed.
    if (firstEdge) {
      let open = 0
      for (const append of life.appends) {
        if (append.i > firstEdge.i) break
        if (append.type === 'turn/start') open++
        if (append.type === 'turn/end') open--
      }
      if (open > 0) out.push(violation(GROUP, 97, `"${id}": ${firstEdge.name} while a turn was still open (turn/end must come first)`, firstEdge))
    }
    // 93–96: a rejected creation rolled its publication back before rejecting.
    const tx = life.tx
    if (tx?.outcome?.status === 'fail' || life.rivals.some((t) => t.outcome?.status === 'fail')) {
      if (sameVerdict(life, (t) => t.outcome?.status === 'fail' && !closedBefore(life, t.outcome.i))) d.judged(95)
      else d.declined(95, R.publisher)
    }
    if (tx?.outcome?.status === 'fail' && !closedBefore(life, tx.outcome.i)) {
      out.push(violation(GROUP, 95, `"${id}": ${tx.spec.op} rejected ("${tx.outcome.detail}") before its published entries were disposed`, tx.outcome))
    }
  }
  // 98 / 103 / D17: every owner's teardown promise resolves only after the full teardown.
  const byWorld = new Map<number, Life[]>()
  for (const life of a.lives) byWorld.set(life.world, [...(byWorld.get(life.world) ?? []), life])
  const latestHandle = new Map<string, Life>()
  // The handle a dispose acts on is the latest one when it is invoked (a later create of the same
  // id may resolve before that teardown does).
  const disposing = new Map<TraceEntry, Life | undefined>()
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    if (e.k === 'invoke' && e.spec.op === 'dispose') {
      // (the handle's agent names its creation; without facts, the latest handle of the id is taken)
      const held = ownerOf(a.facts, e.i)
      const tx = held === undefined ? undefined : [...a.txs.values()].find((t) => t.invoke.i === held)
      disposing.set(e, tx ? tx.life : latestHandle.get(keyOf(e.world, e.spec.session)))
    }
    if (e.k !== 'outcome') continue
    const tx = e.tx ? a.txs.get(e.tx) : undefined
    if (tx && e.status === 'ok' && tx.life) latestHandle.set(keyOf(tx.world, tx.id), tx.life)
    if (e.status !== 'ok') continue
    const invoke = invokeOfOutcome(a, e)
    if (!invoke) continue
    const spec = invoke.spec
    const lives = byWorld.get(e.world) ?? []
    const started = (life: Life): boolean => life.sessionCreated.i < invoke.i
    if (spec.op === 'dispose') {
      const life = disposing.get(invoke)
      // (a handle whose creation has no lifecycle attributed: some lifecycle of the id still open is not judged)
      if (life === undefined) {
        if (lives.some((l) => l.id === spec.session && started(l) && !closedBefore(l, e.i))) d.declined(98, R.disposedHandle)
        continue
      }
      d.judged(98)
      if (!closedBefore(life, e.i)) out.push(violation(GROUP, 98, `"${spec.session}": handle.dispose() resolved before the teardown finished (agent/disposed, session/disposed)`, e))
    } else if (spec.op === 'unloadOwner') {
      d.judged(98)
      for (const life of lives) {
        if (!life.tx && started(life) && !closedBefore(life, e.i)) d.declined(98, R.noCreation)
        if (life.tx?.owner !== spec.owner || !started(life) || closedBefore(life, e.i)) continue
        // (blamed only when every creation that may have published it is the owner's)
        if ([...life.alsoPossible, ...life.rivals].some((t) => t.owner !== spec.owner)) d.declined(98, R.publisher)
        else out.push(violation(GROUP, 98, `"${life.id}": owner "${spec.owner}" finished unloading before the agent's teardown finished`, e))
      }
    } else if (spec.op === 'unloadFactory' || spec.op === 'shutdown' || spec.op === 'restart') {
      d.judged(103)
      for (const life of lives) {
        if (started(life) && !closedBefore(life, e.i)) out.push(violation(GROUP, 103, `"${life.id}": ${spec.op} resolved while the agent was not torn down`, e))
      }
    }
  }
  // 115: a child created through a parent's ctx is torn down before the parent's agent/disposed.
  for (const life of a.lives) {
    const parent = life.tx?.owner?.startsWith('agent:') ? life.tx.owner.slice('agent:'.length) : undefined
    if (!parent) continue
    const parentLife = a.lives.find((p) => p.id === parent && p.world === life.world && p.sessionCreated.i < life.sessionCreated.i && (!p.sessionDisposed || p.sessionDisposed.i > life.sessionCreated.i))
    if (parentLife?.agentDisposed && !closedBefore(life, parentLife.agentDisposed.i)) {
      out.push(violation(GROUP, 115, `child "${life.id}" was not fully torn down before its parent "${parent}"'s agent/disposed`, parentLife.agentDisposed))
    }
  }
  // 111 / §5.3: after its agent/disposed the agent emits nothing more (its driver is quiescent) —
  // unless the program sent to it through a kept handle since: what a send to a disposed agent does
  // (refused, ignored, or accepted and parked) is unspecified (§12 Q3).
  d.judged(111)
  for (const e of a.staleEvents) {
    if (e.sentAfterDisposal) d.declined(111, R.sentToDisposed)
    else out.push(violation(GROUP, 111, `"${e.id}": the detached agent emitted ${e.name}${e.detail ? ` ${e.detail}` : ''} after its agent/disposed`, e))
  }
  // 111 / §5.3: after the session left the store, the agent appends nothing more (up to a send
  // made to the disposed agent through a kept handle, §12 Q3).
  for (const e of entriesOf(a, 'final')) {
    for (const late of e.late) {
      const judged = late.sent ?? late.final
      if (late.sent !== undefined && late.sent !== late.final) d.declined(111, R.sentToDisposed)
      if (judged !== late.detached) out.push(violation(GROUP, 111, `"${late.id}": the session grew from ${late.detached} to ${judged} events after it was detached${late.sent === undefined ? '' : ' (before the program sent to the disposed agent)'}`, e))
    }
  }
  return dedupe(out)
}
