/**
 * How the run ended, and how creations were rejected. A deadlock is a violation unless every
 * blocked operation waits on a hang the program itself injected (or the program waited on a gate it
 * never opened) and nothing was asked to abort it
 * (§3.3: aborts reject promptly; §5: every teardown settles; §12 Q8: every whenIdle and unload
 * settles). Livelocks, crashes (an implementation throwing where it must not, e.g. an unhandled
 * rejection) and uncontrolled nondeterminism are suite-local `X-RUN` violations.
 * @module
 */
import { stringText } from '../../sim/trace/bounded-text.js'
import type { RunOutcome } from '../../sim/engine/index.js'
import { closedGates } from '../../sim/world/surface-marks.js'
import type { Analysis } from './analysis.js'
import { entriesOf } from './analysis.js'
import { R } from './declines.js'
import { joinedUnloads } from './joined-unload.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'

/** Rejections the contract names (§1.3, §3.5, §6.5) plus the faults and aborts a program injects. */
const KNOWN_REJECTIONS = [
  /already (exists|registered)/, /owner disposed during setup/, /agent loop is not active/, /creation aborted/,
  /cannot create effect on inactive context/, /no agent factory registered/, /session persistence is not configured/,
  /invalid persisted inbox splice at session seq \d+/, /is not persisted/, /maxTokens must be a positive safe integer/,
  /not losslessly JSON-serializable/,
  // A persisted log refused at the load boundary, naming the offending event (§3.5 row A: the kit's
  // own seed checks, and runtimes that also validate event envelopes and message shapes).
  /\bseed\b.* at index \d+/, /absolute path/, /signal "[^"]+" aborted by the program/,
  /^(setup|commit) of .* (threw|rejected)/, /^persistence load of .* (failed|hung)/,
  // Only the veto edges may turn a listener's throw into the rejection (§1.9); session-start is contained.
  /^listener:(session\/created|agent\/created) .* threw/, /^effect:.* (threw|rejected)/,
  // A throwing observer of the scope minting fails the creation it interrupts.
  / \(minting\) threw$/,
  // A parent create under a stub agent the program registered directly (its ctx throws).
  /^stub agent ".*" registered by the program$/,
]

function end(outcome: RunOutcome): { i: number; d: number } {
  return { i: -1, d: outcome.decisions.decisions.length }
}

/** Crashes and restarts a program's listeners made, from which a livelock is the program's own loop through new processes. */
const PROGRAM_CRASH_LOOP = 3

/** Check the run outcome and creation rejections. */
export function checkLiveness(a: Analysis, outcome: RunOutcome): Violation[] {
  const out: Violation[] = []
  switch (outcome.kind) {
    case 'livelock':
      // A program that crashes or restarts its process from a listener again and again loops through
      // fresh processes whose listeners (each firing `times` per process) fire again: its own livelock.
      if (a.entries.filter((e) => e.k === 'invoke' && e.actor === 'inline' && (e.spec.op === 'crash' || e.spec.op === 'restart')).length >= PROGRAM_CRASH_LOOP) {
        break
      }
      out.push(violation('X-RUN', 2, outcome.reason ? `livelock: ${outcome.reason}` : `livelock: still running after ${outcome.budget} scheduling steps`, end(outcome)))
      break
    case 'crash':
      out.push(violation('X-RUN', 1, `crash (${outcome.source}): ${stringText(outcome.error)}`, end(outcome)))
      break
    case 'uncontrolled':
      out.push(violation('X-RUN', 3, `uncontrolled nondeterminism: ${outcome.seen}`, end(outcome)))
      break
    case 'deadlock': {
      const closed = gateClosed(a)
      for (const blocked of outcome.blocked) {
        const why = unjustified(a, blocked.actor, blocked.op, blocked.waitingOn, closed)
        if (why) out.push(violation(why.group, why.clause, `deadlock: ${blocked.actor} ${blocked.op} never settled (waits on ${blocked.waitingOn}); ${why.reason}`, end(outcome)))
      }
      break
    }
    case 'ok':
      break
  }
  for (const tx of a.txs.values()) {
    if (tx.outcome?.status !== 'fail') continue
    if (!KNOWN_REJECTIONS.some((r) => r.test(tx.outcome!.detail))) {
      out.push(violation('AGENT-PREPARE-PUBLISH', 58, `"${tx.id}": ${tx.spec.op} rejected with "${tx.outcome.detail}", which is neither a contract error nor the injected cause`, tx.outcome))
    }
  }
  return out
}

interface Unjustified { group: string; clause: number; reason: string }

/** Whether the program waited on a gate it never opened: a hang of its own choice, of whatever waits on it. */
export function gateClosed(a: Analysis): boolean {
  return closedGates(entriesOf(a, 'mark').map((e) => e.label)).length > 0
}

/**
 * For a blocked operation whose program injects a hang: whether that explains it. With facts, it is
 * judged explained when it is parked at its own hang (`parkedAtOwn`), and declined when another
 * hang is still open (it may wait on that one); without facts, declined. False: judge it as a bug.
 */
function explainedByHang(a: Analysis, clause: number, parkedAtOwn: () => boolean): boolean {
  if (!a.facts.present) {
    a.declines.declined(clause, R.noFacts)
    return true
  }
  if (parkedAtOwn()) {
    a.declines.judged(clause)
    return true
  }
  if (a.facts.openHangs.size > 0) {
    a.declines.declined(clause, R.injectedHang)
    return true
  }
  return false
}

/**
 * Why a blocked operation is an implementation bug, or undefined when the program's own hang (an
 * injected one, or a gate it never opened) explains it.
 */
function unjustified(a: Analysis, actor: string, op: string, waitingOn: string, closed: boolean): Unjustified | undefined {
  // (a creation's rollback awaits its scope's disposers, which may wait on that gate: §3.3, rows E–O)
  if (actor === 'main' || actor === 'inline' || closed) return undefined
  const injectedHang = /@setup\.hang$|:hang$/.test(waitingOn)
  const kind = /^(\w+)/.exec(op)?.[1] ?? ''
  if (kind === 'create' || kind === 'resume') {
    // (the latest such creation: one of a process that crashed never settles either, and is not blocked)
    const tx = [...a.txs.values()].filter((t) => t.actor === actor && !t.outcome && `${t.spec.op}(${t.id})` === op).at(-1)
    const aborts = tx ? abortsAfter(a, tx.invoke.i, tx.owner, 'signal' in tx.spec ? tx.spec.signal : undefined, tx.world) : []
    if (aborts.length > 0) return { group: aborts[0]!.group, clause: aborts[0]!.clause, reason: `it must reject promptly after ${aborts[0]!.what}` }
    const spec = tx?.spec
    const programHang = spec !== undefined && ((spec.op === 'create' || spec.op === 'resume') && spec.setup?.hangAt !== undefined ||
      (spec.op === 'resume' && a.program.env?.loads?.[spec.session]?.load === 'hang'))
    if (injectedHang) {
      a.declines.judged(67)
      return undefined
    }
    // (parked at its own setup's or load's hang, still open at the end)
    if (programHang && explainedByHang(a, 67, () => a.facts.openHangs.has(`${tx!.world}/${tx!.actor}:${tx!.invoke.what}@setup.hang`) || (tx!.spec.op === 'resume' && a.facts.openHangs.has(`${tx!.world}/load:${tx!.id}:hang`)))) return undefined
    a.declines.judged(67)
    return { group: 'AGENT-ATOMIC-TEST', clause: 67, reason: 'creation hung without an injected hang' }
  }
  if (kind === 'whenIdle') {
    const session = /\((.*)\)/.exec(op)?.[1] ?? ''
    const hangs = (a.program.env?.model?.[session] ?? []).some((s) => s.reply === 'hang')
    // (the agent's activity parked at its model's hang, still open at the end)
    if (hangs && explainedByHang(a, 27, () => [...a.facts.openHangs].some((h) => h.endsWith(`/model:${session}:hang`)))) return undefined
    a.declines.judged(27)
    return { group: 'AGENT-RUNTIME-SCOPE', clause: 27, reason: 'whenIdle() must settle once the agent is idle' }
  }
  if (kind === 'runMaintenance') return undefined
  if (kind === 'flush') return { group: 'AGENT-REGISTRY-TEST', clause: 87, reason: 'flush must settle once every session/flush listener settled' }
  if (kind === 'boundary') {
    // A boundary waits on the operation nested in it that has not ended: judge that one.
    const ended = new Set(a.entries.filter((e) => e.k === 'outcome' && e.actor === actor).map((e) => e.k === 'outcome' ? e.what : ''))
    const nested = a.entries.filter((e) => e.k === 'invoke' && e.actor === actor && e.what.includes(` in ${op}#`) && !ended.has(e.what)).at(-1)
    if (nested && nested.k === 'invoke') return unjustified(a, actor, nested.what.slice(0, nested.what.indexOf(' in ')), waitingOn, closed)
    return undefined
  }
  // (a process unload drained by a boundary that joined it, D69: one reading of §8 makes that the program's own deadlock)
  if ((kind === 'shutdown' || kind === 'restart') && joinedUnloads(a).length > 0) {
    a.declines.declined(98, R.joinedUnload)
    return undefined
  }
  return { group: 'AGENT-TEARDOWN-TEST', clause: 98, reason: 'every teardown trigger must settle (§5 and §12 Q8 in docs/clauses.md)' }
}

/** Abort triggers aimed at a pending creation: its signal, its owner, the factory, shutdown. */
function abortsAfter(a: Analysis, from: number, owner: string | undefined, signal: string | undefined, world: number): { group: string; clause: number; what: string }[] {
  const found: { group: string; clause: number; what: string }[] = []
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    if (e.k !== 'invoke' || e.i < from || e.world !== world) continue
    const s = e.spec
    if (s.op === 'abortSignal' && s.signal === signal) found.push({ group: 'AGENT-ATOMIC-TEST', clause: 67, what: `its signal "${signal}" was aborted` })
    if (s.op === 'unloadOwner' && s.owner === owner) found.push({ group: 'AGENT-TEARDOWN-TEST', clause: 101, what: `its owner "${owner}" unloaded` })
    if (s.op === 'unloadFactory' || s.op === 'shutdown' || s.op === 'restart') found.push({ group: 'AGENT-TEARDOWN-TEST', clause: 102, what: `${s.op} was requested` })
  }
  return found
}
