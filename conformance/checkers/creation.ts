/**
 * AGENT-SETUP-CONTRACT and AGENT-PREPARE-PUBLISH: creation edge order, publication coherence,
 * nothing visible before setup and commit finished, resolve only after publication.
 * @module
 */
import type { Analysis, Tx } from './analysis.js'
import { sameVerdict } from './analysis.js'
import { R } from './declines.js'
import { spansAt } from './facts.js'
import { sessionOf } from './windows.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'

const SETUP = 'AGENT-SETUP-CONTRACT'
const PUBLISH = 'AGENT-PREPARE-PUBLISH'

/** Check the creation pipeline of every lifecycle. */
export function checkCreation(a: Analysis): Violation[] {
  const out: Violation[] = []
  const d = a.declines
  for (const life of a.lives) {
    const { id } = life
    d.judged(55)
    // §3.2 / 36: session/created → agent/created → agent/session-start.
    if (life.agentCreated && life.agentCreated.i < life.sessionCreated.i) out.push(violation(SETUP, 36, `"${id}": agent/created before session/created`, life.agentCreated))
    if (life.sessionStart && (!life.agentCreated || life.sessionStart.i < life.agentCreated.i)) {
      out.push(violation(SETUP, 36, `"${id}": agent/session-start without a preceding agent/created`, life.sessionStart))
    }
    // 55: listeners of each creation edge see both registries hold the entries.
    for (const edge of [life.sessionCreated, life.agentCreated, life.sessionStart]) {
      if (!edge) continue
      if (edge.alias) out.push(violation(PUBLISH, 55, `"${id}": ${edge.name} listeners were given another object than the registered agent (§1.9: the payload carries the agent itself)`, edge))
      if (!edge.snap.agents.includes(id) || !edge.snap.sessions.includes(id)) {
        out.push(violation(PUBLISH, 55, `"${id}": during ${edge.name} the registries were agents=[${edge.snap.agents}] sessions=[${edge.snap.sessions}]; both must hold "${id}"`, edge))
      }
    }
    // 56: no agent/status during creation.
    // (A listener of a creation edge may drive the agent — the documented injection point, catalog
    // M13 — so only a status change nobody asked for counts.)
    // The creation ends when it settles; one that never did (its process crashed, the run ended)
    // ended its publication at agent/session-start, or, broken off, at its rollback's agent/disposed.
    const ended = life.tx?.outcome?.i ?? life.sessionStart?.i ?? life.agentDisposed?.i ?? Number.POSITIVE_INFINITY
    const early = life.statuses.find((s) => s.i < ended && s.i > life.sessionCreated.i && (!life.sessionStart || s.i < life.sessionStart.i))
    // Driven: emitted inside an operation on this agent made during the creation (a send from a
    // creation listener, catalog M13: a wake starts its driver synchronously, §7.2). Without facts,
    // or after a publication broken off (whose rollback may take turns), any inline operation made
    // before it may have driven it. A publication is one synchronous stretch up to its session-start.
    const inOperation = early !== undefined && a.facts.present && spansAt(a.facts, early.i).some((span) => {
      const invoke = a.entries[span.invoke]
      return invoke?.k === 'invoke' && invoke.i > life.sessionCreated.i && sessionOf(invoke.spec) === id
    })
    const mayBeDriven = early !== undefined && !inOperation && !(a.facts.present && life.sessionStart) && a.entries.some((e) => e.k === 'invoke' && e.actor === 'inline' && e.i > life.sessionCreated.i && e.i < early.i)
    if (mayBeDriven) d.declined(56, a.facts.present ? R.drivenFrom : R.noFacts)
    else d.judged(56)
    if (early && !inOperation && !mayBeDriven) out.push(violation(PUBLISH, 56, `"${id}": agent/status "${early.detail}" emitted during creation`, early))
    const tx = life.tx
    if (!tx) {
      d.declined(36, R.noCreation)
      continue
    }
    // (with several possible publishers, judged when the checks below agree for each of them)
    const fails36 = (t: Tx): boolean => (t.hasSetup && !t.commits.some((m) => m.i < life.sessionCreated.i)) ||
      (t.outcome?.status === 'ok' && (!life.agentCreated || !life.sessionStart || life.sessionStart.i > t.outcome.i))
    if (sameVerdict(life, fails36)) d.judged(36)
    else d.declined(36, R.publisher)
    // 36 / P-UNPUB: with a setup, publication follows the transaction's commit.
    if (tx.hasSetup && !tx.commits.some((m) => m.i < life.sessionCreated.i)) {
      out.push(violation(SETUP, 36, `"${id}": session/created before setup and commit of ${tx.actor}:${tx.spec.op}(${id}) completed`, life.sessionCreated))
    }
    // 36 / §1.8 (9): resolve only after publication.
    if (tx.outcome?.status === 'ok') {
      if (!life.agentCreated || !life.sessionStart || life.sessionStart.i > tx.outcome.i) {
        out.push(violation(SETUP, 36, `"${id}": ${tx.spec.op} resolved before agent/created and agent/session-start were emitted`, tx.outcome))
      }
    }
  }
  // 34/35/39/40: a setup or commit failure publishes nothing.
  for (const tx of a.txs.values()) {
    const detail = tx.outcome?.status === 'fail' ? tx.outcome.detail : ''
    const clause = /^setup of .* (threw|rejected)/.test(detail) ? 39 : /^commit of .* threw/.test(detail) ? 40 : 0
    if (clause === 40) {
      if ((tx.life?.rivals.length ?? 0) > 0 || a.lives.some((l) => l.rivals.includes(tx))) d.declined(40, R.publisher)
      else d.judged(40)
    }
    if (clause && tx.life) out.push(violation(SETUP, clause, `"${tx.id}": ${detail}, yet ${tx.spec.op} published (session/created at #${tx.life.sessionCreated.i})`, tx.life.sessionCreated))
  }
  return out
}
