/**
 * Live and replayed inbox validation agree (AGENT-INBOX-REPLAY, §6.3 and §6.5): the live inbox is
 * always the replay of its durable splices, so a splice the live inbox accepts must resume into the
 * same inbox, and a splice replay would refuse must be refused live before anything is appended.
 * Driven on agents of the runtime under test through `agent.inbox.splice`, with values outside the
 * TypeScript signature where §6.5 names them (replay sees whatever JSON was persisted).
 * @module
 */
import assert from 'node:assert/strict'
import type { Agent, InboxTarget, UserMessage } from '../../core/contract.js'
import { createUserMessage } from '../../core/messages.js'
import type { DirectedCase, Harness } from './harness.js'
import { makeHarness } from './harness.js'

const GROUP = 'AGENT-INBOX-REPLAY'
const msg = (id: string): UserMessage => createUserMessage({ id, content: id })

/** One live splice: what it tries, and its arguments as a caller outside the types could pass them. */
interface Probe {
  readonly what: string
  readonly target: unknown
  readonly start: unknown
  readonly deleteCount: unknown
  readonly inserted: unknown
}

const probe = (what: string, target: unknown, start: unknown, deleteCount: unknown, inserted: unknown): Probe =>
  ({ what, target, start, deleteCount, inserted })

/**
 * Every probe starts from next-turn [t1, t2] and next-step [s1]. Coordinates are normalized live
 * (§6.2), so these are valid edge cases: each is accepted or refused, and if accepted it resumes.
 */
const EDGE_CASES: readonly Probe[] = [
  probe('NaN start and count insert at 0', 'next-turn', NaN, NaN, [msg('n1')]),
  probe('start -1, count 1 removes the last', 'next-turn', -1, 1, []),
  probe('a start far below 0 clamps to 0', 'next-turn', -99, 1, [msg('n1')]),
  probe('a start past the end clamps to the length', 'next-turn', 99, 5, [msg('n1')]),
  probe('a fractional start and count truncate', 'next-turn', 1.7, 1.9, [msg('n1')]),
  probe('an infinite count clamps to length - start', 'next-turn', 0, Infinity, [msg('n1')]),
  probe('a start of -Infinity clamps to 0', 'next-step', -Infinity, 1, []),
  probe('a negative count deletes nothing', 'next-turn', 0, -1, [msg('n1')]),
  probe('removing everything', 'next-turn', 0, 2, []),
  probe('re-inserting the id it removes', 'next-turn', 0, 1, [createUserMessage({ id: 't1', content: 'edited' })]),
  probe('two new messages into next-step', 'next-step', 1, 0, [msg('n1'), msg('n2')]),
  probe('nothing removed, nothing inserted (no event)', 'next-step', 0, 0, []),
]

/** Outside the types and left open by §6.2 and §6.5: either refused, or accepted and then resumed. */
const OPEN: readonly Probe[] = [
  probe('numeric strings as coordinates', 'next-turn', '1', '1', [msg('n1')]),
  probe('an item with an id and nothing else', 'next-turn', 0, 0, [{ id: 'bare' }]),
]

/** Splices whose durable form §6.5 refuses on replay, or which carry no message to keep: refused live. */
const REFUSED: readonly Probe[] = [
  probe('inserted a string, removing the first item', 'next-turn', 0, 1, ''),
  probe('inserted a non-empty string', 'next-turn', 0, 0, 'x'),
  probe('inserted a message not wrapped in an array', 'next-turn', 0, 0, msg('n1')),
  probe('inserted an array-like object', 'next-turn', 0, 0, { 0: msg('n1'), length: 1 }),
  probe('inserted null', 'next-turn', 0, 1, null),
  probe('an item that is not a message (no id)', 'next-turn', 0, 0, [{ note: 'not a message' }]),
  probe('an item that is a string', 'next-turn', 0, 0, ['x']),
  probe('an item that is null', 'next-step', 0, 0, [null]),
  probe('an item whose id is not a string', 'next-turn', 0, 0, [{ ...msg('n1'), id: 7 }]),
  probe('an item that is an array', 'next-turn', 0, 0, [[msg('n1')]]),
  probe('an array with a hole', 'next-turn', 0, 0, new Array(1)),
  probe('a good message then a non-message', 'next-turn', 2, 0, [msg('n1'), { note: 'x' }]),
  probe('the same new id twice', 'next-turn', 0, 0, [msg('n1'), msg('n1')]),
  probe('an id pending in the other list', 'next-turn', 0, 0, [msg('s1')]),
  probe('an id pending outside the removed range', 'next-turn', 0, 1, [msg('t2')]),
  probe('an unknown target', 'later', 0, 0, [msg('n1')]),
  probe('an unknown target named like an Object.prototype member', 'toString', 0, 0, [msg('n1')]),
]

/** What a probe found: refused (with the error) or accepted. */
type Outcome = { refused: true; error: unknown } | { refused: false }

function describeProbe(p: Probe): string {
  const show = (v: unknown): string => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : JSON.stringify(v) ?? String(v))
  return `${p.what}: splice(${show(p.target)}, ${show(p.start)}, ${show(p.deleteCount)}, ${show(p.inserted)})`
}

/** An agent `id` with next-turn [t1, t2] and next-step [s1]. */
async function seeded(h: Harness, id: string): Promise<Agent> {
  const { agent } = await h.create(id)
  agent.inbox.append('next-turn', msg('t1'))
  agent.inbox.append('next-turn', msg('t2'))
  agent.inbox.append('next-step', msg('s1'))
  return agent
}

/**
 * Run `p` live on a fresh agent `id`. A refusal must leave no trace: the session's length, the
 * lists and the inbox notifications are unchanged (§6.3: validate, then append).
 */
async function tryLive(h: Harness, id: string, p: Probe): Promise<Outcome> {
  const agent = await seeded(h, id)
  const before = { seq: agent.session.seq, nextTurn: agent.inbox.nextTurn, nextStep: agent.inbox.nextStep }
  const heard = h.observed.length
  try {
    agent.inbox.splice(p.target as InboxTarget, p.start as number, p.deleteCount as number, p.inserted as UserMessage[])
  } catch (error) {
    const label = describeProbe(p)
    assert.equal(agent.session.seq, before.seq, `${label}: refused, yet the session grew (nothing may be appended before validation)`)
    assert.deepEqual(agent.inbox.nextTurn, before.nextTurn, `${label}: refused, yet next-turn changed`)
    assert.deepEqual(agent.inbox.nextStep, before.nextStep, `${label}: refused, yet next-step changed`)
    const notified = h.observed.slice(heard).filter((o) => o.id === id).map((o) => o.name)
    assert.deepEqual(notified, [], `${label}: refused, yet events were emitted`)
    return { refused: true, error }
  }
  return { refused: false }
}

/** Crash (the pending items stay on disk, §12 Q2), resume every agent and compare its inbox with the live one. */
async function assertResumesEqual(h: Harness, accepted: ReadonlyArray<[id: string, p: Probe, agent: Agent]>): Promise<void> {
  const live = accepted.map(([id, p, agent]) => ({ id, p, nextTurn: agent.inbox.nextTurn, nextStep: agent.inbox.nextStep }))
  const next = await h.crash()
  for (const { id, p, nextTurn, nextStep } of live) {
    const label = describeProbe(p)
    const back = await next.ctx.agents.resume({ resumeSessionId: id }).catch((error: unknown) => {
      throw new Error(`${label}: accepted live, but the session no longer resumes: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    })
    assert.deepEqual(back.agent.inbox.nextTurn, nextTurn, `${label}: the resumed next-turn differs from the live one`)
    assert.deepEqual(back.agent.inbox.nextStep, nextStep, `${label}: the resumed next-step differs from the live one`)
  }
}

export const inboxLiveReplayCases: DirectedCase[] = [
  {
    group: GROUP, clause: 117, title: 'every splice the live inbox accepts resumes into the same inbox (crash, resume): normalized coordinates, re-inserted ids, and any shape it does not refuse',
    resumes: true,
    async run(target) {
      const h = await makeHarness(target)
      const accepted: [string, Probe, Agent][] = []
      for (const [i, p] of [...EDGE_CASES, ...OPEN, ...REFUSED].entries()) {
        const id = `p${i}`
        const outcome = await tryLive(h, id, p)
        if (!outcome.refused) accepted.push([id, p, h.ctx.agents.get(id)!])
      }
      const edge = new Set(accepted.map(([, p]) => p))
      for (const p of EDGE_CASES) assert.ok(edge.has(p), `${describeProbe(p)}: refused, but §6.2 normalizes its coordinates`)
      await assertResumesEqual(h, accepted)
    },
  },
  {
    group: GROUP, clause: 117, title: 'a live splice that replay refuses (inserted not an array, an item that is not a message, duplicate ids, unknown target) is refused before anything is appended',
    async run(target) {
      const h = await makeHarness(target)
      for (const [i, p] of REFUSED.entries()) {
        const outcome = await tryLive(h, `r${i}`, p)
        assert.ok(outcome.refused, `${describeProbe(p)}: accepted live, but §6.5 refuses its durable splice on replay`)
        if (/twice|pending/.test(p.what)) {
          const text = outcome.error instanceof Error ? outcome.error.message : String(outcome.error)
          assert.match(text, /message "[^"]+" is already pending/, `${describeProbe(p)}: the contract's error`)
        }
      }
    },
  },
]
