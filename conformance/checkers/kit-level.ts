/**
 * Kit-level clauses checked in simulated runs through the probes the programs opt into:
 * - a re-send of an id already pending (`resend`) is rejected: an accepted one violates §9 120;
 * - the ownership queries agree with the creations after every event (`env.ownership`): a child
 *   created through a live parent is owned by it and not a root (§9 5), no agent owns itself (§9 6);
 * - inside an initiator boundary (`boundary`), `currentInitiator()` stays its agent across every
 *   awaited operation (§9 130, 132), and a boundary that awaits its own process's unload completes
 *   (no self-deadlock, §9 137);
 * - a step of the registry split a program drives on a stub (`enter`, `announce`, `detach`) does
 *   what §4 says: enter emits nothing and refuses a live id, announce emits `agent/created` once and
 *   refuses a repeat or a stale object, detach is single-shot, never removes a replacement, is
 *   silent for a never-announced entry and deferred inside its own `agent/created` (§9 71–79);
 * - a session persisted with header fields (`env.persisted[].header`) resumes with exactly those
 *   fields (§9 45), and without a `cwd` when none was persisted (§9 46).
 * @module
 */
import { BOUNDARY_LOST } from '../../sim/operations/boundary.js'
import { OWNERSHIP_MARK } from '../../sim/world/ownership-probe.js'
import { PERSISTED_HEADER_FIELDS } from '../../sim/program/program.js'
import { SPLIT_MARK } from '../../sim/operations/registry-split.js'
import { RESEND_ACCEPTED } from '../../sim/operations/resend.js'
import type { Analysis } from './analysis.js'
import { entriesOf } from './analysis.js'
import { R } from './declines.js'
import { windowsOf } from './windows.js'
import { gateClosed } from './liveness.js'
import { joinedUnloads, operationKey } from './joined-unload.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'

/** Check the re-send and ownership probes of one run. */
export function checkKitLevel(a: Analysis): Violation[] {
  const out: Violation[] = []
  const seen = new Set<string>()
  const persisted = new Map((a.program.env?.persisted ?? []).filter((p) => p.header !== undefined).map((p) => [p.id, p.header!]))
  // A fresh create of a persisted id overwrites its record: from then on the declared header is not
  // on disk. (By the operation's spec: an inline create's description names where it came from.)
  const overwritten = new Set<string>()
  const creates = new Map<number, string>()
  for (const w of windowsOf(a)) if (w.spec.op === 'create' && w.outcome?.status === 'ok') creates.set(w.outcome.i, w.spec.session)
  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    const created = creates.get(e.i)
    if (created !== undefined) overwritten.add(created)
    if (e.k === 'resumed' && e.header) {
      const declared = persisted.get(e.id) as Record<string, unknown> | undefined
      if (!declared) continue
      const differs = Object.keys(PERSISTED_HEADER_FIELDS).filter((field) => declared[field] !== e.header![field])
      // (a create of the id rewrote the disk: which header this resume's load read is not known)
      if (overwritten.has(e.id)) {
        for (const field of differs) a.declines.declined(field === 'cwd' && declared[field] === undefined ? 46 : 45, R.loadServed)
        if (differs.length === 0) a.declines.judged(45)
        continue
      }
      a.declines.judged(45)
      a.declines.judged(46)
      for (const field of differs) {
        const want = declared[field]
        const got = e.header[field]
        out.push(field === 'cwd' && want === undefined
          ? violation('AGENT-CREATE-RESUME', 46, `"${e.id}": persisted without cwd, resumed with header.cwd ${JSON.stringify(got)}`, e)
          : violation('AGENT-CREATE-RESUME', 45, `"${e.id}": resumed header.${field} is ${JSON.stringify(got)}, persisted ${JSON.stringify(want)}`, e))
      }
      continue
    }
    if (e.k !== 'mark') continue
    if (e.label.startsWith(`${BOUNDARY_LOST} `)) {
      out.push(violation('AGENT-INITIATOR-API', 130, `"${e.id ?? '?'}": inside its initiator boundary, ${e.label.slice(BOUNDARY_LOST.length + 1)}`, e))
    } else if (e.label.startsWith(`${RESEND_ACCEPTED} `)) {
      out.push(violation('AGENT-INBOX-TEST', 120, `"${e.id ?? '?'}": a message with the id ${e.label.slice(RESEND_ACCEPTED.length + 1)} of an item already pending was accepted (must throw already pending)`, e))
    } else if (e.label.startsWith(`${SPLIT_MARK} `)) {
      const [clause, ...what] = e.label.slice(SPLIT_MARK.length + 1).split(' ')
      out.push(violation('AGENT-REGISTRY-LIFECYCLE', Number(clause), what.join(' '), e))
    } else if (e.label.startsWith(`${OWNERSHIP_MARK} `)) {
      const line = e.label.slice(OWNERSHIP_MARK.length + 1)
      if (seen.has(line)) continue
      seen.add(line)
      out.push(violation('AGENT-FACTORY-SEAM', /owns itself/.test(line) ? 6 : 5, line, e))
    }
  }
  out.push(...selfDeadlocks(a))
  return out
}

const UNLOADS = new Set(['shutdown', 'restart', 'unloadFactory', 'unloadOwner'])

/**
 * A boundary whose awaited unload of its own process never completed: the drain waited on itself
 * (§9 137). Only an unload the boundary actually started counts: a boundary held up earlier (by an
 * operation before the unload that hangs by the program's own choice) never reached it.
 */
function selfDeadlocks(a: Analysis): Violation[] {
  const out: Violation[] = []
  // (most runs have no boundary: then there is nothing to index)
  if (!entriesOf(a, 'invoke').some((e) => e.spec.op === 'boundary')) return out
  const ended = new Set<string>()
  for (const e of entriesOf(a, 'outcome')) ended.add(operationKey(e))
  let gatesLeftClosed: boolean | undefined
  a.entries.forEach((e, i) => {
    if (e.k !== 'invoke' || e.spec.op !== 'boundary' || ended.has(operationKey(e))) return
    const index = e.spec.ops.findIndex((op) => UNLOADS.has(op.op))
    if (index < 0) return
    const unload = e.spec.ops[index]!
    const inner = ` in ${e.what}#${index}`
    const started = a.entries.slice(i + 1).find((x) => x.k === 'invoke' && x.world === e.world && x.actor === e.actor && x.what.startsWith(unload.op) && x.what.endsWith(inner))
    if (started?.k !== 'invoke') return
    if (ended.has(operationKey(started))) {
      a.declines.judged(137)
      return
    }
    // An unload another chain had started, joined: drained with the boundary under one reading of §8.
    if (joinedUnloads(a).includes(started)) {
      a.declines.declined(137, R.joinedUnload)
      return
    }
    // A process that crashed under the boundary ends nothing it had in flight.
    // (whether the unload was already parked on the boundary when it crashed is not known)
    if (a.entries.some((x) => x.k === 'invoke' && x.spec.op === 'crash' && x.world === e.world && x.i > started.i)) {
      a.declines.declined(137, R.crashedWait)
      return
    }
    // The unload may be parked at a gate the program never opened (a disposer's `wait`, say): the
    // program's own hang, not the drain's (whether the unload waits there is not recorded).
    if ((gatesLeftClosed ??= gateClosed(a))) {
      a.declines.declined(137, R.injectedHang)
      return
    }
    a.declines.judged(137)
    out.push(violation('AGENT-INITIATOR-DRAIN', 137, `"${e.spec.session}": ${e.actor}'s boundary awaiting ${unload.op} never completed (the unload waited on the boundary that awaits it)`, e))
  })
  return out
}
