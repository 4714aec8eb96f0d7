/**
 * What a violation says, on hand-built traces: each message names what differs (only the lists and
 * items that differ, quoted ids, never `undefined`), and a clause's message speaks of its clause.
 */
import { describe, expect, it } from 'vitest'
import type { RunOutcome } from '../../sim/engine/index.js'
import type { Program } from '../../sim/program/program.js'
import type { InboxSnapshot, NewEntry, Trace, TraceEntry } from '../../sim/trace/trace.js'
import { inboxMessageId } from '../../sim/world/inbox-payload.js'
import { checkRun } from './index.js'
import { inboxDifference, messageOf, quoteIds } from './wording.js'

const OK: RunOutcome = { kind: 'ok', steps: 1, decisions: { v: 1, decisions: [] } } as unknown as RunOutcome
const BOTH = { agents: ['s1'], sessions: ['s1'] }
const program: Program = { v: 1, actors: [] }

function trace(entries: NewEntry[]): Trace {
  return { v: 1, entries: entries.map((e, i) => ({ ...e, i, d: 1 }) as TraceEntry) }
}

function event(name: string, detail = '', extra: Partial<Extract<NewEntry, { k: 'event' }>> = {}): NewEntry {
  return { k: 'event', name, id: 's1', detail, snap: BOTH, world: 0, ...extra }
}

const message = (id: string): { id: string; role: 'user'; content: { type: 'text'; text: string }[]; source: { kind: 'user' } } =>
  ({ id, role: 'user', content: [{ type: 'text', text: id }], source: { kind: 'user' } })

function splice(seq: number, data: unknown, inbox: InboxSnapshot): NewEntry {
  return { k: 'append', id: 's1', seq, type: 'agent/inbox/spliced', data, snap: BOTH, world: 0, inbox }
}

/** Messages of the violations of `clause` on `entries`. */
function messages(entries: NewEntry[], key: string): string[] {
  return checkRun(program, trace(entries), OK).filter((v) => v.key === key).map((v) => v.message)
}

describe('wording', () => {
  it('quotes ids and says when an item has none', () => {
    expect(quoteIds(['m1', undefined, 'm2'])).toBe('["m1", <no id>, "m2"]')
    expect(quoteIds([])).toBe('[]')
    expect(messageOf('s3', 'm1')).toBe('message "m1" of "s3"')
    expect(messageOf('s3', undefined)).toBe('a message of "s3" with no id')
  })

  it('names only the lists that differ, and the items only one side holds', () => {
    const live = { nextTurn: ['m1'], nextStep: ['m2'] }
    expect(inboxDifference(live, { nextTurn: ['m1'], nextStep: ['m2', 'm3'] }, ['live', 'durable']))
      .toBe('next-step: live ["m2"], durable ["m2", "m3"] ("m3" only in durable)')
    expect(inboxDifference({ nextTurn: ['a', 'b'], nextStep: [] }, { nextTurn: ['b', 'a'], nextStep: [] }, ['x', 'y']))
      .toBe('next-turn: x ["a", "b"], y ["b", "a"] (same items, another order)')
    expect(inboxDifference({ nextTurn: [undefined], nextStep: [] }, { nextTurn: [], nextStep: [] }, ['live', 'durable']))
      .toBe('next-turn: live [<no id>], durable [] (<no id> only in live)')
    expect(inboxDifference(live, live, ['live', 'durable'])).toBe('')
  })
})

describe('checker messages', () => {
  it('AGENT-INBOX-COMMIT 122: a live inbox that is not the durable replay names the differing list and item, even when an id is missing', () => {
    // The live inbox holds a message without an id that no durable splice inserted: before, both sides printed `next-turn=[]`.
    const got = messages([event('session/created'), splice(0, { target: 'next-turn', start: 0, inserted: [message('m1')] }, { nextTurn: [undefined as unknown as string], nextStep: [] })], 'AGENT-INBOX-COMMIT 122')
    expect(got).toEqual(['"s1" seq 0: just before this splice the live inbox is not the replay of the durable splices: next-turn: live [<no id>], durable [] (<no id> only in live)'])
  })

  it('AGENT-CREATE-RESUME 47: a restored inbox that is not the replay of the persisted log names the differing list', () => {
    const events = [{ type: 'agent/inbox/spliced', seq: 0, data: { target: 'next-step', start: 0, inserted: [message('m1'), message('m2')] } }]
    const got = messages([
      event('session/created'),
      { k: 'resumed', id: 's1', world: 0, inbox: { nextTurn: [], nextStep: ['m1'] }, events },
    ], 'AGENT-CREATE-RESUME 47')
    expect(got).toEqual(['"s1" resumed with an inbox that is not the replay of its persisted log: next-step: restored ["m1"], persisted log ["m1", "m2"] ("m2" only in persisted log)'])
  })

  it('AGENT-INBOX-TEST 126: a claim that takes the wrong items says what it took from what was pending', () => {
    const inserted = splice(0, { target: 'next-step', start: 0, inserted: [message('m1'), message('m2')] }, { nextTurn: [], nextStep: [] })
    const partial = splice(1, { target: 'next-step', start: 0, removedCount: 1, inserted: [] }, { nextTurn: [], nextStep: ['m1', 'm2'] })
    expect(messages([event('session/created'), inserted, partial], 'AGENT-INBOX-TEST 126'))
      .toEqual(['"s1" seq 1: a claim takes every pending next-step item, but this one removed ["m1"] at index 0 while next-step held ["m1", "m2"]'])
    // Before: "took 1 of 0 from 0".
    const fromEmpty = splice(0, { target: 'next-step', start: 0, removedCount: 1, inserted: [] }, { nextTurn: [], nextStep: [] })
    expect(messages([event('session/created'), fromEmpty], 'AGENT-INBOX-TEST 126'))
      .toEqual(['"s1" seq 0: a claim takes every pending next-step item, but this one removed 1 item(s) at index 0 while next-step was empty'])
    const twoTurns = [
      splice(0, { target: 'next-turn', start: 0, inserted: [message('m1'), message('m2')] }, { nextTurn: [], nextStep: [] }),
      splice(1, { target: 'next-turn', start: 0, removedCount: 2, inserted: [] }, { nextTurn: ['m1', 'm2'], nextStep: [] }),
    ]
    expect(messages([event('session/created'), ...twoTurns], 'AGENT-INBOX-TEST 126'))
      .toEqual(['"s1" seq 1: a claim takes exactly the first next-turn item, but this one removed ["m1", "m2"] at index 0 while next-turn held ["m1", "m2"]'])
  })

  it('AGENT-INBOX-TEST 125: a notification whose payload has no message id says so instead of printing "s3/undefined"', () => {
    const got = messages([event('session/created'), event('agent/inbox/discarded', '', { noMessageId: 'carries a message with no string id ({"content":"x"})' })], 'AGENT-INBOX-TEST 125')
    expect(got).toEqual(['"s1": agent/inbox/discarded carries a message with no string id ({"content":"x"}); its payload\'s message must be the inbox\'s UserMessage, with its id'])
    const never = messages([event('session/created'), event('agent/inbox/discarded', 'm9')], 'AGENT-INBOX-TEST 125')
    expect(never).toEqual(['message "m9" of "s1" was announced discarded but never announced inserted'])
  })

  it('the world records what an inbox notification carried instead of a message id', () => {
    expect(inboxMessageId({ message: message('m1') })).toEqual({ id: 'm1' })
    expect(inboxMessageId({ message: { content: 'x' } })).toEqual({ missing: 'carries a message with no string id ({"content":"x"})' })
    expect(inboxMessageId({ message: 'm1' })).toEqual({ missing: 'carries message "m1" instead of the UserMessage' })
    expect(inboxMessageId({ messages: [] } as never)).toEqual({ missing: 'carries no message (payload keys: messages)' })
  })

  it('AGENT-INBOX-TEST 121: an outcome other than "canceled" is named as such, not as a splice that removes nothing', () => {
    const bogus = splice(1, { target: 'next-step', start: 0, removedCount: 1, inserted: [], outcome: 'dropped' }, { nextTurn: [], nextStep: ['m1'] })
    const got = messages([event('session/created'), splice(0, { target: 'next-step', start: 0, inserted: [message('m1')] }, { nextTurn: [], nextStep: [] }), bogus], 'AGENT-INBOX-TEST 121')
    expect(got).toEqual(['"s1" seq 1: outcome "dropped"; the only outcome is "canceled"'])
  })

  it('AGENT-RUNTIME-SCOPE 22: a first status change to "idle" is said to repeat the idle the agent was published with', () => {
    const got = messages([event('session/created'), event('agent/created'), event('agent/status', 'idle')], 'AGENT-RUNTIME-SCOPE 22')
    expect(got).toEqual(['"s1": agent/status "idle" emitted while the agent was already idle (it is published idle, so its first status change must be "running")'])
    const twice = messages([event('session/created'), event('agent/created'), event('agent/status', 'running'), event('agent/status', 'running')], 'AGENT-RUNTIME-SCOPE 22')
    expect(twice).toEqual(['"s1": agent/status "running" emitted twice in a row'])
  })
})
