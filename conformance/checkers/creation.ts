/**
 * AGENT-SETUP-CONTRACT and AGENT-PREPARE-PUBLISH: creation edge order, publication coherence,
 * nothing visible before setup and commit finished, resolve only after publication.
 * @module
 */
import type { Analysis } from './analysis.js'
import { R } from './declines.js'
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
    const resolved = life.tx?.outcome
    if (resolved) {
      const early = life.statuses.find((s) => s.i < resolved.i && s.i > life.sessionCreated.i && (!life.sessionStart || s.i < life.sessionStart.i))
      const driven = early && a.entries.some((e) => e.k === 'invoke' && e.actor === 'inline' && e.i > life.sessionCreated.i && e.i < early.i)
      if (driven) d.declined(56, R.drivenFrom)
      else d.judged(56)
      if (early && !driven) out.push(violation(PUBLISH, 56, `"${id}": agent/status "${early.detail}" emitted during creation`, early))
    } else if (life.statuses.length > 0) {
      d.declined(56, R.creationUnsettled)
    } else {
      d.judged(56)
    }
    const tx = life.tx
    if (!tx) {
      d.declined(36, R.noCreation)
      continue
    }
    if (life.guessed) d.declined(36, R.publisher)
    else d.judged(36)
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
      if (tx.life?.guessed || a.lives.some((l) => l.guessed && l.world === tx.world && l.id === tx.id && l.tx !== tx)) d.declined(40, R.publisher)
      else d.judged(40)
    }
    if (clause && tx.life) out.push(violation(SETUP, clause, `"${tx.id}": ${detail}, yet ${tx.spec.op} published (session/created at #${tx.life.sessionCreated.i})`, tx.life.sessionCreated))
  }
  return out
}
