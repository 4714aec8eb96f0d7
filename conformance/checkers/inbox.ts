/**
 * AGENT-INBOX-REPLAY / AGENT-INBOX-COMMIT / AGENT-INBOX-TEST: at every `agent/inbox/spliced`
 * append the projection rebuilt from the durable events equals the live one; after a resume the
 * restored inbox equals the replay of the persisted log, and a log that does not replay must fail
 * recovery; splice payloads are normalized; claims are batched; every message id is inserted once
 * and ends once (claimed or discarded), durably before it is announced.
 * @module
 */
import type { TraceEntry } from '../../sim/trace/trace.js'
import type { Analysis } from './analysis.js'
import { keyOf } from './analysis.js'
import { dedupe } from './atomic.js'
import { R } from './declines.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'
import { inboxDifference, messageOf, quoteIds, sameIds as same } from './wording.js'

interface Splice { target: 'next-turn' | 'next-step'; start: number; removedCount?: number; inserted: { id: string }[]; outcome?: string }
interface Projection { 'next-turn': string[]; 'next-step': string[] }

const KEY_ORDER = ['target', 'start', 'removedCount', 'inserted', 'outcome']

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
}

/** Apply one durable splice with the validation of §6.5; returns an error text or undefined. */
export function applySplice(p: Projection, data: unknown): string | undefined {
  const s = data as Splice
  if (typeof s !== 'object' || s === null) return 'payload is not an object'
  if (s.target !== 'next-turn' && s.target !== 'next-step') return `unknown target ${JSON.stringify(s.target)}`
  const list = p[s.target]
  const removed = s.removedCount ?? 0
  if (!isCount(s.start) || !isCount(removed)) return 'start/removedCount is not a non-negative safe integer'
  if (s.start > list.length || s.start + removed > list.length) return `coordinates start=${s.start} removedCount=${removed} exceed length ${list.length}`
  if (!Array.isArray(s.inserted)) return 'inserted is not an array'
  const kept = new Set([...p['next-turn'], ...p['next-step']])
  for (let i = s.start; i < s.start + removed; i++) kept.delete(list[i]!)
  for (const m of s.inserted) {
    if (kept.has(m?.id)) return `duplicate message id ${JSON.stringify(m?.id)}`
    kept.add(m?.id)
  }
  list.splice(s.start, removed, ...s.inserted.map((m) => m.id))
  return undefined
}

function replayAll(events: readonly { type: string; seq: number; data: unknown }[]): { projection: Projection; error?: string; seq?: number } {
  const projection: Projection = { 'next-turn': [], 'next-step': [] }
  for (const e of events) {
    if (e.type !== 'agent/inbox/spliced') continue
    const error = applySplice(projection, e.data)
    if (error) return { projection, error, seq: e.seq }
  }
  return { projection }
}

/** What a claim splice took, against what it must take (`list`: the pending ids of its target). */
function claimedWrongly(s: Splice, list: readonly string[], must: string): string {
  const took = list.slice(s.start, s.start + (s.removedCount ?? 0))
  const pending = list.length === 0 ? `${s.target} was empty` : `${s.target} held ${quoteIds(list)}`
  const what = took.length === s.removedCount ? quoteIds(took) : `${s.removedCount} item(s)`
  return `a claim takes ${must}, but this one removed ${what} at index ${s.start} while ${pending}`
}

/** Check the inbox clauses. */
export function checkInbox(a: Analysis): Violation[] {
  const out: Violation[] = []
  const projections = new Map<string, Projection>()
  const turnOpen = new Map<string, { stepped: boolean }>()
  const inserted = new Map<string, TraceEntry>()
  const ended = new Map<string, string>()
  const removedBy = new Map<string, 'canceled' | 'claim'>()
  const known = new Set<string>()

  for (let ei = 0; ei < a.entries.length; ei++) {
    const e = a.entries[ei]!
    if (e.k === 'resumed') {
      const key = keyOf(e.world, e.id)
      const replayed = replayAll(e.events)
      for (const ev of e.events) if (ev.type === 'agent/inbox/spliced') for (const m of (ev.data as Splice).inserted ?? []) known.add(`${e.id}/${m?.id}`)
      if (replayed.error) {
        out.push(violation('AGENT-INBOX-REPLAY', 116, `"${e.id}" resumed although its persisted splice at seq ${replayed.seq} is invalid (${replayed.error}); recovery must fail with "invalid persisted inbox splice at session seq ${replayed.seq}"`, e))
        continue
      }
      if (!same(replayed.projection['next-turn'], e.inbox.nextTurn) || !same(replayed.projection['next-step'], e.inbox.nextStep)) {
        const durable = { nextTurn: replayed.projection['next-turn'], nextStep: replayed.projection['next-step'] }
        out.push(violation('AGENT-CREATE-RESUME', 47, `"${e.id}" resumed with an inbox that is not the replay of its persisted log: ${inboxDifference(e.inbox, durable, ['restored', 'persisted log'])}`, e))
      }
      projections.set(key, replayed.projection)
      // A resume restores what its log holds pending, even a message another lifecycle of the id
      // already took out (a load that read the disk before that removal was persisted): it may
      // leave this inbox again.
      for (const m of [...replayed.projection['next-turn'], ...replayed.projection['next-step']]) ended.delete(`${e.id}/${m}`)
      continue
    }
    if (e.k === 'event' && e.name === 'session/created') {
      const key = keyOf(e.world, e.id)
      projections.set(key, { 'next-turn': [], 'next-step': [] })
      continue
    }
    if (e.k === 'append') {
      const key = keyOf(e.world, e.id)
      if (e.type === 'turn/start') turnOpen.set(key, { stepped: false })
      if (e.type === 'step/start') { const t = turnOpen.get(key); if (t) t.stepped = true }
      if (e.type !== 'agent/inbox/spliced') continue
      const projection = projections.get(key) ?? { 'next-turn': [], 'next-step': [] }
      projections.set(key, projection)
      const s = e.data as Splice
      // §6.3 / 122: the live projection before the splice equals the replay of the durable log.
      // (with no agent registered under the id, the world read no live projection)
      if (e.inbox) a.declines.judged(122)
      else a.declines.declined(122, R.unregisteredInbox)
      if (e.inbox && (!same(e.inbox.nextTurn, projection['next-turn']) || !same(e.inbox.nextStep, projection['next-step']))) {
        const durable = { nextTurn: projection['next-turn'], nextStep: projection['next-step'] }
        out.push(violation('AGENT-INBOX-COMMIT', 122, `"${e.id}" seq ${e.seq}: just before this splice the live inbox is not the replay of the durable splices: ${inboxDifference(e.inbox, durable, ['live', 'durable'])}`, e))
      }
      // §6.2 / 121: normalized payload in key order; removedCount omitted when 0; outcome iff an ordinary removal.
      const keys = Object.keys(s ?? {})
      const order = keys.map((k) => KEY_ORDER.indexOf(k))
      if (order.some((x, i) => x < 0 || (i > 0 && x <= order[i - 1]!))) out.push(violation('AGENT-INBOX-TEST', 121, `"${e.id}" seq ${e.seq}: splice keys ${JSON.stringify(keys)} are not {target, start, removedCount?, inserted, outcome?}`, e))
      if (s?.removedCount === 0) out.push(violation('AGENT-INBOX-TEST', 121, `"${e.id}" seq ${e.seq}: removedCount 0 must be omitted`, e))
      if (s?.outcome !== undefined && s.outcome !== 'canceled') out.push(violation('AGENT-INBOX-TEST', 121, `"${e.id}" seq ${e.seq}: outcome ${JSON.stringify(s.outcome)}; the only outcome is "canceled"`, e))
      else if (s?.outcome !== undefined && !s.removedCount) out.push(violation('AGENT-INBOX-TEST', 121, `"${e.id}" seq ${e.seq}: outcome "canceled" on a splice that removes nothing`, e))
      if (!s?.removedCount && Array.isArray(s?.inserted) && s.inserted.length === 0) out.push(violation('AGENT-INBOX-TEST', 121, `"${e.id}" seq ${e.seq}: a splice that removes and inserts nothing must not be written`, e))
      // 126: claim batching.
      const isClaim = !!s?.removedCount && s.outcome === undefined && Array.isArray(s.inserted) && s.inserted.length === 0
      if (isClaim) {
        const list = projection[s.target] ?? []
        if (s.target === 'next-step' && (s.start !== 0 || s.removedCount !== list.length)) out.push(violation('AGENT-INBOX-TEST', 126, `"${e.id}" seq ${e.seq}: ${claimedWrongly(s, list, 'every pending next-step item')}`, e))
        if (s.target === 'next-turn' && (s.start !== 0 || s.removedCount !== 1)) out.push(violation('AGENT-INBOX-TEST', 126, `"${e.id}" seq ${e.seq}: ${claimedWrongly(s, list, 'exactly the first next-turn item')}`, e))
        if (s.target === 'next-turn' && turnOpen.get(key)?.stepped) out.push(violation('AGENT-INBOX-TEST', 126, `"${e.id}" seq ${e.seq}: a later step of a turn claimed a next-turn item`, e))
      }
      const list = projection[s?.target] ?? []
      const removed = list.slice(s?.start ?? 0, (s?.start ?? 0) + (s?.removedCount ?? 0))
      const error = applySplice(projection, s)
      if (error) {
        out.push(violation('AGENT-INBOX-REPLAY', 117, `"${e.id}" seq ${e.seq}: the durable splice does not replay (${error})`, e))
        continue
      }
      for (const id of removed) removedBy.set(`${e.id}/${id}`, isClaim ? 'claim' : 'canceled')
      continue
    }
    if (e.k === 'event' && e.name.startsWith('agent/inbox/') && !e.stale) {
      const key = keyOf(e.world, e.id)
      const projection = projections.get(key)
      if (e.noMessageId) {
        out.push(violation('AGENT-INBOX-TEST', 125, `"${e.id}": ${e.name} ${e.noMessageId}; its payload's message must be the inbox's UserMessage, with its id`, e))
        continue
      }
      const message = e.name === 'agent/inbox/claimed' ? e.detail.slice(0, e.detail.lastIndexOf('@')) : e.detail
      const pending = projection ? [...projection['next-turn'], ...projection['next-step']].includes(message) : false
      // Message ids are unique within one session's inbox (§6.1), not across sessions.
      const id = `${e.id}/${message}`
      const named = messageOf(e.id, message)
      if (e.name === 'agent/inbox/inserted') {
        if (inserted.has(id)) out.push(violation('AGENT-INBOX-TEST', 125, `${named} was announced inserted twice`, e))
        inserted.set(id, e)
        if (!pending) out.push(violation('AGENT-INBOX-COMMIT', 122, `${named} was announced inserted before (or without) its durable splice`, e))
        continue
      }
      const outcome = e.name === 'agent/inbox/claimed' ? 'claimed' : 'discarded'
      if (ended.has(id)) out.push(violation('AGENT-INBOX-TEST', 125, `${named} was announced ${ended.get(id)} and then ${outcome} (a message leaves the inbox once)`, e))
      ended.set(id, outcome)
      if (!inserted.has(id) && !known.has(id)) out.push(violation('AGENT-INBOX-TEST', 125, `${named} was announced ${outcome} but never announced inserted`, e))
      if (pending) out.push(violation('AGENT-INBOX-COMMIT', 122, `${named} was announced ${outcome} while still pending in the durable log`, e))
      const how = removedBy.get(id)
      if (how && how !== (outcome === 'claimed' ? 'claim' : 'canceled')) out.push(violation('AGENT-INBOX-TEST', 126, `${named} was announced ${outcome} but its durable removal was a ${how === 'claim' ? 'claim' : 'canceled splice'}`, e))
    }
  }
  return dedupe(out)
}
