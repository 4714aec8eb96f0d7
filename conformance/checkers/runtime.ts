/**
 * AGENT-RUNTIME-SCOPE (status legality, whenIdle settlement), X-INPUT (balanced turns and steps),
 * AGENT-CREATE-RESUME 44 (turn numbering continues), AGENT-INITIATOR-API 139 (a driver observes
 * its own agent as initiator inside its model calls, and while they abort) and 130 (withInitiator
 * returns its operation's exact result).
 * @module
 */
import type { Analysis } from './analysis.js'
import { entriesOf, keyOf } from './analysis.js'
import { dedupe } from './atomic.js'
import { R } from './declines.js'
import { violation } from './violation.js'
import { invokeOfOutcome } from './windows.js'
import type { Violation } from './violation.js'

const ENDINGS = new Set(['completed', 'blocked', 'aborted', 'error'])

/** A step boundary's payload as a message shows it. */
function stepPayload(data: unknown): string {
  const d = (data ?? {}) as { turn?: unknown; step?: unknown }
  return `{turn: ${JSON.stringify(d.turn) ?? 'undefined'}, step: ${JSON.stringify(d.step) ?? 'undefined'}}`
}

/** Check status, whenIdle, turn shape and initiator observations. */
export function checkRuntime(a: Analysis): Violation[] {
  const out: Violation[] = []
  for (const life of a.lives) {
    let last: string | undefined
    for (const s of life.statuses) {
      if (s.detail !== 'idle' && s.detail !== 'running') out.push(violation('AGENT-PUBLIC-INTERFACE', 11, `"${life.id}": agent/status carried status ${JSON.stringify(s.detail) ?? 'undefined'}; a status is "idle" or "running"`, s))
      if (s.detail === last) out.push(violation('AGENT-RUNTIME-SCOPE', 22, `"${life.id}": agent/status "${s.detail}" emitted twice in a row`, s))
      // An agent is published idle, so an "idle" first change repeats the value it already had.
      if (last === undefined && s.detail === 'idle') out.push(violation('AGENT-RUNTIME-SCOPE', 22, `"${life.id}": agent/status "idle" emitted while the agent was already idle (it is published idle, so its first status change must be "running")`, s))
      last = s.detail
    }
  }
  // 24–28: a resolved whenIdle() sees an idle agent.
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    if (e.k !== 'outcome' || e.status !== 'ok') continue
    const invoke = invokeOfOutcome(a, e)
    if (invoke?.spec.op !== 'whenIdle') continue
    const id = invoke.spec.session
    // Only the agent published when whenIdle() was called: one called before (from a commit, on an id
    // whose previous agent is gone) awaited no agent of this lifecycle.
    const life = a.lives.find((l) => l.id === id && l.world === e.world && l.sessionCreated.i < invoke.i && (!l.sessionDisposed || l.sessionDisposed.i > invoke.i))
    if (!life) {
      // (the agent called may be a held handle's, or the next lifecycle's: judged when the one live at the outcome was idle)
      const then = a.lives.find((l) => l.id === id && l.world === e.world && l.sessionCreated.i < e.i && (!l.sessionDisposed || l.sessionDisposed.i > e.i))
      if (then?.statuses.filter((s) => s.i < e.i).at(-1)?.detail === 'running') a.declines.declined(27, R.calledAgent)
      else a.declines.judged(27)
      continue
    }
    const status = life.statuses.filter((s) => s.i < e.i).at(-1)
    // Called on an idle agent, it resolves a microtask later; its outcome is recorded a few
    // microtasks after that, and work of the same decision step (another agent's driver, a listener)
    // may have started this agent meanwhile: a running status that came after the call, in the
    // call's own step, which is also the outcome's, is not judged (one running at the call is, and
    // so is one that came in a later step: the call then had time to see the agent's activity,
    // a maintenance say, whose replacement it must follow).
    const atCall = life.statuses.filter((s) => s.i < invoke.i).at(-1)
    if (status?.detail === 'running' && atCall?.detail !== 'running' && status.i > invoke.i && invoke.d === status.d && status.d === e.d) {
      a.declines.declined(27, R.whenIdleSettled)
      continue
    }
    // Likewise when the agent went idle after the call and ran again in the outcome's step, once an
    // outcome was recorded in between: the idle dispatch had returned and microtasks had run (a
    // boundary's next operation, say), so the waiter may have seen the idle agent and resolved before
    // that work began, which it could not follow. A restart from inside the idle dispatch itself
    // (no outcome in between) is still judged: the waiter must follow it (§9 27).
    if (status?.detail !== 'running') {
      a.declines.judged(27)
      continue
    }
    const idle = life.statuses.filter((s) => s.i > invoke.i && s.i < status.i && s.detail === 'idle').at(-1)
    if (idle !== undefined && idle.d === status.d && status.d === e.d && a.entries.slice(idle.i + 1, status.i).some((x) => x.k === 'outcome')) {
      a.declines.declined(27, R.whenIdleSettled)
      continue
    }
    a.declines.judged(27)
    out.push(violation('AGENT-RUNTIME-SCOPE', 27, `"${id}": whenIdle() resolved while the agent was running`, e))
  }
  // X-INPUT 159 and CREATE-RESUME 44: turns and steps are balanced and numbered in order.
  const shape = new Map<string, { turn: number; open: boolean; step: boolean; steps: number }>()
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    if (e.k === 'resumed') {
      let turn = 0
      for (const ev of e.events) if (ev.type === 'turn/start') turn = Number((ev.data as { turn?: number }).turn) || turn
      shape.set(keyOf(e.world, e.id), { turn, open: false, step: false, steps: 0 })
      continue
    }
    if (e.k === 'event' && e.name === 'session/created') {
      shape.set(keyOf(e.world, e.id), { turn: 0, open: false, step: false, steps: 0 })
      continue
    }
    if (e.k !== 'append') continue
    const key = keyOf(e.world, e.id)
    const s = shape.get(key) ?? { turn: 0, open: false, step: false, steps: 0 }
    shape.set(key, s)
    const data = e.data as { turn?: number; step?: number; reason?: { kind?: string } | null }
    switch (e.type) {
      case 'turn/start':
        if (s.open) out.push(violation('X-INPUT', 159, `"${e.id}": turn/start ${data.turn} while turn ${s.turn} is still open`, e))
        if (data.turn !== s.turn + 1) out.push(violation('AGENT-CREATE-RESUME', 44, `"${e.id}": turn/start ${data.turn} after turn ${s.turn} (numbering must continue at ${s.turn + 1})`, e))
        s.turn = Number(data.turn) || s.turn + 1
        s.open = true
        s.steps = 0
        break
      case 'step/start':
        if (!s.open || s.step) out.push(violation('X-INPUT', 159, `"${e.id}": step/start outside an open turn or inside an open step`, e))
        // §10.1: append('step/start', {turn, step}) with the open turn and the next step number.
        else if (data.turn !== s.turn || data.step !== s.steps + 1) out.push(violation('X-INPUT', 159, `"${e.id}": step/start carried ${stepPayload(data)}; the open turn's next step is {turn: ${s.turn}, step: ${s.steps + 1}} (§10.1)`, e))
        s.step = true
        s.steps++
        break
      case 'step/end':
        if (!s.step) out.push(violation('X-INPUT', 159, `"${e.id}": step/end without step/start`, e))
        // §10.1: the step's finally appends step/end with the same {turn, step} as its step/start.
        else if (data.turn !== s.turn || data.step !== s.steps) out.push(violation('X-INPUT', 159, `"${e.id}": step/end carried ${stepPayload(data)}; the open step is {turn: ${s.turn}, step: ${s.steps}} (§10.1)`, e))
        s.step = false
        break
      case 'user/message': case 'assistant/message':
        if (!s.step) out.push(violation('X-INPUT', 159, `"${e.id}": ${e.type} outside a step`, e))
        break
      case 'turn/end':
        if (!s.open) out.push(violation('X-INPUT', 159, `"${e.id}": turn/end without an open turn`, e))
        if (s.step) out.push(violation('X-INPUT', 159, `"${e.id}": turn/end while a step is open`, e))
        if (data.turn !== s.turn) out.push(violation('X-INPUT', 159, `"${e.id}": turn/end ${data.turn} closes turn ${s.turn}`, e))
        if (!data.reason || !ENDINGS.has(String(data.reason.kind))) out.push(violation('X-INPUT', 159, `"${e.id}": turn/end reason ${JSON.stringify(data.reason)} is not completed/blocked/aborted/error`, e))
        s.open = false
        break
    }
  }
  // 139: inside its model call a driver observes its own agent as the initiator.
  for (const e of entriesOf(a, 'mark')) {
    if (!e.id) continue
    const match = / initiator=(.*)$/.exec(e.label)
    if (match && match[1] !== e.id) out.push(violation('AGENT-INITIATOR-API', 139, `"${e.id}": its model call observed initiator "${match[1]}"`, e))
    // 130: the setup's probe saw withInitiator hand back another object than its operation returned.
    if (e.label.endsWith(' withInitiator returned another object')) out.push(violation('AGENT-INITIATOR-API', 130, `"${e.id}": withInitiator reached through the agent's ctx returned another object than its operation's result`, e))
  }
  return dedupe(out)
}
