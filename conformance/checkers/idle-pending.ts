/**
 * No waking input left behind at quiescence (§7.2 wake rule and latch replay, §7.4, §12 Q7/Q8): when
 * an agent is quiescent (idle, `whenIdle()` settled, no maintenance), no message a `followup` or
 * `steer` sent to it is still pending unless something the contract names parked it. A waking send
 * either starts a driver (from idle), is claimed by the running driver (which loops while work is
 * pending after a normally closed turn), or is latched behind maintenance or a converging abort and
 * replayed at its convergence.
 *
 * Parked legitimately, so not reported: quiet input (`inject`, `queue`) and resumed items (Q1); a
 * message a later `cancel(…, {keepInbox})` kept, whose wake an earlier cancel with the `disposed`
 * cause left unlatched, or whose latch the plain cancel it was sent from inside reset; a message
 * after which a turn ended `aborted`, `blocked` or `error` (or with no step, Q11); one that landed
 * while a running agent had no turn open (the exit gap of Q7, or between turns); and every message
 * of an agent whose teardown was requested or whose creation is rolling back or never finished
 * publishing (§5.1: disposal never latches; Q8 happens only then).
 *
 * Keyed by where the send found the agent, read at the send's outcome: during maintenance
 * (AGENT-RUNTIME-SCOPE 31), in an aborted activity converging (X-CANCEL 148), running (20) or idle (19).
 * @module
 */
import type { TraceEntry } from '../../sim/trace/trace.js'
import type { Analysis, Life } from './analysis.js'
import { entriesOf, publicationBrokenOff } from './analysis.js'
import { dedupe } from './atomic.js'
import { R } from './declines.js'
import type { DeclineReason } from './declines.js'
import { atProbe, lifeAt, probedAgents, quiescent } from './quiescence.js'
import type { ProbedAgent } from './quiescence.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import type { OpWindow } from './windows.js'
import { inSpan, rollbackBegan } from './facts.js'
import { rivalOwnerUnload, teardownRequest, windowsOf } from './windows.js'

type Append = Extract<TraceEntry, { k: 'append' }>

/** Check that quiescent agents keep no waking input a wake should have run. */
export function checkIdlePending(a: Analysis): Violation[] {
  const out: Violation[] = []
  const candidates = probedAgents(a).filter(({ agent }) => quiescent(agent) && (agent.nextTurn?.length || agent.nextStep?.length))
  // Accepted sends by world/session/message id.
  const sends = new Map<string, OpWindow>()
  for (const w of windowsOf(a)) {
    const s = w.spec
    if ((s.op === 'followup' || s.op === 'steer' || s.op === 'inject' || s.op === 'queue') && w.outcome?.status === 'ok' && w.outcome.detail) {
      sends.set(`${w.world}/${s.session}/${w.outcome.detail}`, w)
    }
  }
  judgedSends(a, sends, candidates)
  if (candidates.length === 0) return out
  const reported = new Set<string>()
  const declined = new Set<string>()
  for (const { probe, agent, life } of candidates) {
    // Torn down on request, or rolled back (its creation rejected after publication began, or its
    // publication was broken off before agent/session-start): a message sent after the request was
    // sent during the teardown (§12 Q3: disposal never latches); one sent before it may have been
    // left to the teardown, whose inbox clear must cancel it (114 judges that), if the teardown
    // closed the agent's admission before reaching it, which the trace does not show.
    const request = teardownRequest(a, life, probe.at)
    const rollback = life.tx?.outcome?.status === 'fail' || publicationBrokenOff(life, probe.at)
    // (where the rollback began, when the facts show the injected throw that broke it off)
    const began = rollback ? rollbackBegan(a.facts, life) : undefined
    for (const id of [...(agent.nextTurn ?? []), ...(agent.nextStep ?? [])]) {
      const send = sends.get(`${probe.world}/${agent.id}/${id}`)
      if (!send || (send.spec.op !== 'followup' && send.spec.op !== 'steer') || send.invoke.i < life.sessionCreated.i || send.outcome!.i >= probe.at) continue
      const key = `${probe.world}/${agent.id}/${id}`
      if (reported.has(key)) continue
      const parks = parked(a, life, send, probe.at)
      // (a request made inside the send, from an observer of its append, came before its wake was decided)
      const during = request !== undefined && (request.invoke.i < send.invoke.i || inSpan(a.facts.spans.get(send.invoke.i), request.invoke.i))
      // (or of another creation of the id that may have published it, had that one published: D67)
      const why: Parked | undefined = parks === PARKED ? parks : request ? (during ? R.sentAfterTeardown : R.teardownReach)
        : rollback ? (began !== undefined && began <= send.invoke.i ? R.sentAfterTeardown : R.rollbackStart)
        : parks ?? (rivalOwnerUnload(a, life, probe.at) ? R.publisher : undefined)
      if (why) {
        if (!declined.has(key)) {
          if (why === PARKED) a.declines.judged(foundIn(a, life, send).clause)
          else a.declines.declined(foundIn(a, life, send).clause, why)
        }
        declined.add(key)
        continue
      }
      reported.add(key)
      const where = foundIn(a, life, send)
      a.declines.judged(where.clause)
      out.push(violation(where.group, where.clause, `"${agent.id}": ${id} (${send.spec.op} sent while the agent was ${where.what}) is still pending while the agent is idle and whenIdle() has settled: a wake should have run it`, atProbe(probe)))
    }
  }
  return dedupe(out)
}

/**
 * The waking sends a quiescent probe of their lifecycle saw after they returned, no longer pending
 * there: judged (nothing was left behind), under the clause their loss would break.
 */
function judgedSends(a: Analysis, sends: ReadonlyMap<string, OpWindow>, pendingAt: readonly ProbedAgent[]): void {
  // Per lifecycle, the entry counts of its quiescent probes.
  const quiet = new Map<Life, number[]>()
  for (const { probe, agent, life } of probedAgents(a)) if (quiescent(agent)) quiet.set(life, [...(quiet.get(life) ?? []), probe.at])
  if (quiet.size === 0) return
  const pending = new Set<string>()
  for (const { probe, agent } of pendingAt) for (const id of [...(agent.nextTurn ?? []), ...(agent.nextStep ?? [])]) pending.add(`${probe.world}/${agent.id}/${id}`)
  for (const [key, send] of sends) {
    if ((send.spec.op !== 'followup' && send.spec.op !== 'steer') || pending.has(key)) continue
    const life = lifeAt(a, send.world, send.spec.session, send.invoke.i + 1)
    if (!life || !(quiet.get(life) ?? []).some((at) => at > send.outcome!.i)) continue
    a.declines.judged(foundIn(a, life, send).clause)
  }
}

/** Parked as the contract says, certainly (the message's clause is judged). */
const PARKED = 'parked'
type Parked = DeclineReason | typeof PARKED

/**
 * Whether something the contract names parked the message `send` inserted, before entry `at`:
 * {@link PARKED} when it certainly did, the reason it is not known when it may have, undefined when
 * nothing did.
 */
function parked(a: Analysis, life: Life, send: OpWindow, at: number): Parked | undefined {
  const from = send.invoke.i
  const sent = send.outcome?.i ?? from
  let maybe: DeclineReason | undefined
  for (const w of windowsOf(a)) {
    if (w.world !== life.world || w.spec.op !== 'cancel' || w.spec.session !== life.id || w.invoke.i >= at || w.invoke.i <= life.sessionCreated.i) continue
    // A keepInbox cancel after it keeps it parked until a later wake (§7.3), when it aborted an
    // activity (the agent ran, or was in maintenance); a waking send after it ends the park.
    if (w.spec.keepInbox === true && w.invoke.i > from) {
      if (!active(a, life, w.invoke.i)) continue
      // (not one made while the activity a disposed cancel aborted still converged: disposal never latches, §7.3)
      if (windowsOf(a).some((x) => x.world === life.world && (x.spec.op === 'followup' || x.spec.op === 'steer') && x.spec.session === life.id && x.invoke.i > w.invoke.i && x.invoke.i < at && x.outcome?.status === 'ok' &&
        !(w.spec.op === 'cancel' && w.spec.cause === 'disposed' && sameActivity(a, life, w.invoke.i, x.invoke.i)))) continue
      return PARKED
    }
    // A cancel with the disposed cause before its wake was decided, in the activity the send found,
    // means the wake was never latched (disposal never latches, §7.2). The wake is decided after the
    // append, whose observers run first: a disposed cancel made from one of them (inside the send,
    // before its outcome) came before it too.
    if (w.spec.cause === 'disposed' && w.invoke.i < sent) {
      if (!a.facts.present) {
        maybe ??= R.noFacts
        continue
      }
      // (the abort it made, or, for a turn whose signal the world was not handed, the cancel itself)
      const abort = a.facts.aborts.find((f) => f.world === life.world && f.id === life.id && f.kind === 'disposed' && f.at >= w.invoke.i && f.at < sent)
      // (the wake is decided after both the send's append and that abort)
      const x = abort?.at ?? w.invoke.i + 1
      if (sameActivity(a, life, x, Math.max(x, from))) return PARKED
      // (not in the activity it aborted: a send from inside its clear may still have had its latch reset, below)
    }
    // A send made from inside a plain cancel's inbox clear (a discard listener) is latched, then the
    // same cancel resets the latch (§7.3 step 1: clear, then reset wakeRequested). With facts: inside
    // the cancel's synchronous part; without, between its invoke and its outcome.
    if (w.spec.keepInbox !== true && w.invoke.i < from && (w.outcome === undefined || w.outcome.i > from)) {
      if (!a.facts.present) maybe ??= R.noFacts
      else if (inSpan(a.facts.spans.get(w.invoke.i), from)) return PARKED
    }
  }
  // A turn that did not close normally (or entered no step) after it arrived ends the driver; what is
  // left parks (§7.4), unless it was a waking send made after that turn's activity was aborted: that
  // one latched (not for a disposal) and must run after the convergence.
  let stepped = false
  let opened = -1
  for (const e of life.appends) {
    if (e.i >= at) break
    if (e.type === 'turn/start') {
      stepped = false
      opened = e.i
    }
    if (e.type === 'step/start') stepped = true
    if (e.i <= from || e.type !== 'turn/end') continue
    const reason = (e.data as { reason?: { kind?: unknown; reason?: { kind?: unknown } | null } | null } | null)?.reason
    if (reason?.kind === 'completed' && stepped) continue
    if (reason?.kind !== 'aborted' || reason.reason?.kind === 'disposed') return PARKED
    const aborted = abortedAt(a, life, opened, e.i)
    if (aborted === undefined) return maybe ?? R.teardownReach
    if (from < aborted) return PARKED
  }
  // It landed while a running agent had no turn open: the driver's exit gap (Q7) or between turns.
  const before = (e: { i: number }): boolean => e.i < from
  const status = life.statuses.filter(before).at(-1)
  if (status?.detail === 'running') {
    const lastStart = lastOf(life.appends, 'turn/start', from)
    const lastEnd = lastOf(life.appends, 'turn/end', from)
    if (!lastStart || (lastEnd && lastEnd.i > lastStart.i)) return R.exitGap
  }
  return maybe
}

/** Whether the agent had an activity at entry `i`: it read `running`, or a maintenance task of the program ran. */
function active(a: Analysis, life: Life, i: number): boolean {
  if (life.statuses.filter((s) => s.i < i).at(-1)?.detail === 'running') return true
  let maintenance = 0
  for (const e of entriesOf(a, 'mark')) {
    if (e.i >= i) break
    if (e.world !== life.world || e.id !== life.id || e.i < life.sessionCreated.i) continue
    if (e.label.endsWith('@maintenance:start')) maintenance++
    else if (e.label.endsWith('@maintenance:end')) maintenance--
  }
  return maintenance > 0
}

/** Whether positions `x` <= `y` fall in one activity of the agent: it was active at both and did not go idle (or end a maintenance) between. */
function sameActivity(a: Analysis, life: Life, x: number, y: number): boolean {
  if (!active(a, life, x) || !active(a, life, y)) return false
  if (life.statuses.some((s) => s.i >= x && s.i < y)) return false
  return !a.entries.slice(x, y).some((e) => e.k === 'mark' && e.id === life.id && e.world === life.world && e.label.endsWith('@maintenance:end'))
}

/**
 * Where the activity of the turn opened at `from` and ended aborted at `to` was first aborted: the
 * abort fact of its signal, else the first cancel of the agent made in the turn (a cancel aborts
 * in its synchronous part), else unknown (a teardown's abort reaches the agent at a point not marked).
 */
function abortedAt(a: Analysis, life: Life, from: number, to: number): number | undefined {
  const fact = a.facts.aborts.find((f) => f.world === life.world && f.id === life.id && f.at > from && f.at <= to && f.source !== 'maintenance')
  if (fact && !fact.before) return fact.at
  const cancel = windowsOf(a).find((w) => w.world === life.world && w.spec.op === 'cancel' && w.spec.session === life.id && w.invoke.i > from && w.invoke.i < to && w.outcome?.status === 'ok')
  return cancel?.invoke.i
}

function lastOf(appends: readonly Append[], type: string, before: number): Append | undefined {
  let found: Append | undefined
  for (const e of appends) {
    if (e.i >= before) break
    if (e.type === type) found = e
  }
  return found
}

/** Where the send found the agent, at its outcome: the clause its loss breaks. */
function foundIn(a: Analysis, life: Life, send: OpWindow): { group: string; clause: number; what: string } {
  const at = send.outcome!.i
  let maintenance = 0
  for (const e of entriesOf(a, 'mark')) {
    if (e.i >= at) break
    if (e.world !== life.world || e.id !== life.id || e.i < life.sessionCreated.i) continue
    if (e.label.endsWith('@maintenance:start')) maintenance++
    else if (e.label.endsWith('@maintenance:end')) maintenance--
  }
  if (maintenance > 0) return { group: 'AGENT-RUNTIME-SCOPE', clause: 31, what: 'in maintenance' }
  const status = life.statuses.filter((s) => s.i < at).at(-1)
  if (status?.detail !== 'running') return { group: 'AGENT-RUNTIME-SCOPE', clause: 19, what: 'idle' }
  const turn = lastOf(life.appends, 'turn/start', at)
  const aborted = turn !== undefined && windowsOf(a).some((w) => w.world === life.world && w.spec.op === 'cancel' && w.spec.session === life.id && w.invoke.i > turn.i && w.invoke.i < send.invoke.i)
  return aborted ? { group: 'X-CANCEL', clause: 148, what: 'converging from an abort' } : { group: 'AGENT-RUNTIME-SCOPE', clause: 20, what: 'running' }
}
