/**
 * The message ledger (P-LEDGER): what happens to each message between the caller and the model.
 * - an accepted send is durably inserted before it returns (§7.2 step 1; §9 125, 142);
 * - a request carries the message as logged, never the caller's later edits (§6.3; §9 122);
 * - a message a completed turn claimed reached a request (§10.1; §9 162);
 * - `cancel` without `keepInbox` drops everything pending when it was called (§7.3; §9 149) — pending
 *   in the projection the agent sees: a cancel from inside a `session/event` observer of a splice
 *   sees the lists before that splice (§6.3), so the messages it inserts are not pending yet;
 * - nothing that was pending when teardown was requested is still pending at `agent/disposed`
 *   (§5.1 step 3; §9 114).
 * @module
 */
import type { Analysis, Life } from './analysis.js'
import { keyOf } from './analysis.js'
import { dedupe } from './atomic.js'
import { R } from './declines.js'
import { invokedInDispatch, rollbackBegan } from './facts.js'
import { abortsCreation } from './analysis.js'
import type { SplicePayload } from './projection.js'
import { isClaim, walkProjections } from './projection.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import { teardownRequest, windowsOf } from './windows.js'
import { quoteId, quoteIds } from './wording.js'

const INPUTS = new Set(['followup', 'steer', 'inject', 'queue'])

/** Check the message ledger. */
export function checkLedger(a: Analysis): Violation[] {
  const out: Violation[] = []
  const windows = windowsOf(a)
  // Accepted sends, by the entry index of their outcome.
  const sends = new Map<number, { world: number; session: string; message: string; invoke: number; canceledBefore: boolean }>()
  // Cancels without keepInbox, by invoke and by outcome index.
  const cancelInvokes = new Map<number, { world: number; session: string }>()
  const cancelOutcomes = new Map<number, { world: number; session: string; invoke: number }>()
  for (const w of windows) {
    const s = w.spec
    if (INPUTS.has(s.op) && w.outcome?.status === 'ok' && w.outcome.detail && 'session' in s) {
      const canceledBefore = windows.some((c) => c.world === w.world && c.spec.op === 'cancel' && 'session' in c.spec && c.spec.session === s.session && c.invoke.i < w.invoke.i)
      sends.set(w.outcome.i, { world: w.world, session: s.session, message: w.outcome.detail, invoke: w.invoke.i, canceledBefore })
    }
    if (s.op === 'cancel' && !s.keepInbox && w.outcome?.status === 'ok') {
      cancelInvokes.set(w.invoke.i, { world: w.world, session: s.session })
      cancelOutcomes.set(w.outcome.i, { world: w.world, session: s.session, invoke: w.invoke.i })
    }
  }
  const pendingAtCancel = new Map<number, string[]>()
  // What the cancel saw publishing (left out of what it owes): whether it ran inside that splice's observer is not known.
  const publishingAtCancel = new Map<number, string[]>()
  // 114 concerns what was pending when teardown began (§5.1 step 3); a send that lands during the
  // teardown is unspecified (§12 Q3). The first request is an upper bound on when it began.
  const requests = new Map<number, Life[]>()
  const requestOf = new Map<Life, string>()
  for (const life of a.lives) {
    if (!life.agentDisposed || life.agentDisposed.stale) continue
    // A creation that failed after publication is rolled back from what failed it: the injected
    // throw that broke its publication off (a fact), or a request that aborts it (its signal, its
    // owner, the factory). Without either, the trace does not mark where (§12 Q3 after it).
    const request = teardownRequest(a, life, life.agentDisposed.i)
    let at = request?.invoke.i
    if (life.tx?.outcome?.status === 'fail') {
      const tx = life.tx
      const aborting = windowsOf(a).find((w) => w.invoke.i > life.sessionCreated.i && w.invoke.i < life.agentDisposed!.i && abortsCreation(w.invoke, tx))?.invoke.i
      const began = [rollbackBegan(a.facts, life), aborting, at].filter((n): n is number => n !== undefined)
      at = began.length > 0 ? Math.min(...began) : undefined
    }
    if (at !== undefined) {
      requests.set(at, [...(requests.get(at) ?? []), life])
      requestOf.set(life, at === request?.invoke.i ? request.spec.op : 'rollback')
    }
  }
  const pendingAtRequest = new Map<Life, string[]>()
  // Where each message was inserted (entry index) and the content it was logged with (compared as
  // JSON only when a request carries another object: the trace is complete, nothing changes now).
  const insertedAt = new Map<string, number>()
  const logged = new Map<string, unknown>()
  // Per session: the ids the open turn claimed and no request has carried yet.
  const claimed = new Map<string, Set<string>>()
  // Per session: the ids of the last splice while it is being published (logged, not yet in the
  // live lists): until its first agent/inbox/inserted, or the session's next append (§6.3), and the
  // entry of that splice.
  const publishing = new Map<string, string[]>()
  const publishingAt = new Map<string, number>()

  walkProjections(a, (e, projections) => {
    if (e.k === 'resumed') {
      for (const ev of e.events) {
        if (ev.type !== 'agent/inbox/spliced') continue
        for (const m of (ev.data as SplicePayload).inserted ?? []) logged.set(`${e.world}/${e.id}/${m?.id}`, m?.content)
      }
      return
    }
    const requested = requests.get(e.i)
    if (requested) for (const life of requested) pendingAtRequest.set(life, projections.pending(life.world, life.id))
    const cancel = cancelInvokes.get(e.i)
    if (cancel) {
      // With facts, a cancel made outside that splice's dispatch sees the splice applied: it owes its ids.
      const key = keyOf(cancel.world, cancel.session)
      const inside = !a.facts.present || invokedInDispatch(a.facts, publishingAt.get(key) ?? -1, e.i)
      const unseen = inside ? publishing.get(key) ?? [] : []
      const pending = projections.pending(cancel.world, cancel.session)
      pendingAtCancel.set(e.i, pending.filter((id) => !unseen.includes(id)))
      publishingAtCancel.set(e.i, pending.filter((id) => unseen.includes(id)))
    }
    if (e.k === 'event' && e.name === 'agent/inbox/inserted') publishing.delete(keyOf(e.world, e.id))
    const done = cancelOutcomes.get(e.i)
    if (done) {
      const before = pendingAtCancel.get(done.invoke) ?? []
      const now = projections.pending(done.world, done.session)
      const left = now.filter((id) => before.includes(id))
      // (with facts, what a cancel inside the splice's dispatch did not see it did not owe, §6.3)
      if (left.length === 0 && !a.facts.present && (publishingAtCancel.get(done.invoke) ?? []).some((id) => now.includes(id))) a.declines.declined(149, R.publishingSplice)
      else a.declines.judged(149)
      if (left.length > 0) out.push(violation('X-CANCEL', 149, `"${done.session}": cancel without keepInbox returned with ${quoteIds(left)} still pending (every queued item must be durably canceled)`, e))
    }
    const send = sends.get(e.i)
    if (send) {
      const at = insertedAt.get(`${send.world}/${send.session}/${send.message}`)
      if (at === undefined || at < send.invoke) {
        out.push(violation('X-CANCEL', send.canceledBefore ? 142 : 125, `"${send.session}": message ${quoteId(send.message)} was accepted but never durably inserted (no agent/inbox/spliced carries it)`, e))
      }
    }
    if (e.k === 'event' && e.name === 'agent/disposed' && !e.stale) {
      const life = a.lives.find((l) => l.agentDisposed === e)
      const now = projections.pending(e.world, e.id)
      const requested = life ? pendingAtRequest.get(life) : undefined
      const before = requested ?? []
      const left = now.filter((id) => before.includes(id))
      // What is still pending and was not pending at the request: sent after the teardown began
      // (§12 Q3), or, with no request to bound it (a rollback, a teardown nobody asked for), not known.
      if (life && left.length === 0 && now.length > 0) {
        const how = requestOf.get(life)
        a.declines.declined(114, requested === undefined ? (life.tx?.outcome?.status === 'fail' ? R.rollbackStart : R.teardownReach)
          : how === 'dispose' || how === 'rollback' ? R.sentAfterTeardown : R.teardownReach)
      } else if (life) {
        a.declines.judged(114)
      }
      if (left.length > 0) out.push(violation('AGENT-TEARDOWN-TEST', 114, `"${e.id}": ${quoteIds(left)} were pending when teardown was requested and still are at agent/disposed (pending items are durably canceled at disposal)`, e))
    }
    if (e.k !== 'append') return
    const key = keyOf(e.world, e.id)
    publishing.delete(key)
    switch (e.type) {
      case 'agent/inbox/spliced': {
        const s = e.data as SplicePayload
        if (s?.inserted?.length) {
          publishing.set(key, s.inserted.map((m) => String(m?.id)))
          publishingAt.set(key, e.i)
        }
        for (const m of s?.inserted ?? []) {
          insertedAt.set(`${e.world}/${e.id}/${m?.id}`, e.i)
          logged.set(`${e.world}/${e.id}/${m?.id}`, m?.content)
        }
        if (s && isClaim(s)) {
          const list = projections.get(e.world, e.id)[s.target] ?? []
          const batch = claimed.get(key)
          for (const id of list.slice(s.start, s.start + (s.removedCount ?? 0))) batch?.add(id)
        }
        return
      }
      case 'turn/start':
        claimed.set(key, new Set())
        return
      case 'user/message': {
        const m = e.data as { id?: string; content?: unknown }
        claimed.get(key)?.delete(String(m?.id))
        const content = logged.get(`${e.world}/${e.id}/${m?.id}`)
        const was = content === undefined || content === m?.content ? undefined : JSON.stringify(content)
        if (was !== undefined && was !== JSON.stringify(m?.content)) {
          out.push(violation('AGENT-INBOX-COMMIT', 122, `"${e.id}" seq ${e.seq}: the request carries message ${quoteId(m?.id)} as ${JSON.stringify(m?.content)}, not as its splice logged it (${was}); the live inbox must hold the logged snapshot`, e))
        }
        return
      }
      case 'turn/end': {
        const reason = (e.data as { reason?: { kind?: string } | null }).reason
        const lost = [...(claimed.get(key) ?? [])]
        claimed.delete(key)
        if (reason?.kind === 'completed' && lost.length > 0) {
          out.push(violation('X-INPUT', 162, `"${e.id}": turn ${(e.data as { turn?: number }).turn} completed but claimed ${quoteIds(lost)} without any request carrying them (no user/message)`, e))
        }
        return
      }
    }
  })
  return dedupe(out)
}
