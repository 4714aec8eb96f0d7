/**
 * Checker readings that certifying a foreign runtime corrected, on hand-built traces: a refusal of
 * a malformed persisted log is a known rejection, and a publication is attributed to a transaction
 * that could have made it.
 */
import { describe, expect, it } from 'vitest'
import type { RunOutcome } from '../../sim/engine/index.js'
import type { Operation, Program } from '../../sim/program/program.js'
import type { NewEntry, Trace, TraceEntry } from '../../sim/trace/trace.js'
import { checkRun } from './index.js'

const OK: RunOutcome = { kind: 'ok', steps: 1, decisions: { v: 1, decisions: [] } } as unknown as RunOutcome
const EMPTY = { agents: [] as string[], sessions: [] as string[] }
const BOTH = { agents: ['s1'], sessions: ['s1'] }

function trace(entries: NewEntry[]): Trace {
  return { v: 1, entries: entries.map((e, i) => ({ ...e, i, d: 1 }) as TraceEntry) }
}

function invoke(actor: string, tx: string, spec: Operation): NewEntry {
  return { k: 'invoke', actor, op: 0, what: `${spec.op}(s1)`, world: 0, spec, tx, owner: actor }
}

function outcome(actor: string, tx: string, status: 'ok' | 'fail', detail: string): NewEntry {
  return { k: 'outcome', actor, op: 0, what: 'create(s1)', status, detail, world: 0, snap: EMPTY, tx }
}

function event(name: string, snap = BOTH): NewEntry {
  return { k: 'event', name, id: 's1', detail: '', snap, world: 0 }
}

const program: Program = { v: 1, actors: [] }

describe('checkers', () => {
  it('AGENT-PREPARE-PUBLISH 58: a resume refused because the persisted log is malformed (naming the seed event) is a known rejection', () => {
    for (const detail of ['seed event at index 0 has an invalid event envelope', 'seed assistant/message at index 2 lacks an identified message', 'invalid seed event at index 1: bad surface']) {
      const t = trace([invoke('a1', 't1', { op: 'resume', session: 's1' }), outcome('a1', 't1', 'fail', detail)])
      expect(checkRun(program, t, OK).map((v) => v.key), detail).toEqual([])
    }
    const unknown = trace([invoke('a1', 't1', { op: 'resume', session: 's1' }), outcome('a1', 't1', 'fail', 'Cannot read properties of undefined')])
    expect(checkRun(program, unknown, OK).map((v) => v.key)).toEqual(['AGENT-PREPARE-PUBLISH 58'])
  })

  it('AGENT-SETUP-CONTRACT 36/39: a publication during a failed setup\'s rollback goes to the same-id create without a setup, not to the failed one', () => {
    const failed = invoke('a1', 't1', { op: 'create', session: 's1', setup: { steps: 0, throwSync: true } })
    const lifecycle = [event('session/created'), event('agent/created'), event('agent/disposed', { agents: [], sessions: ['s1'] }), event('session/disposed', EMPTY)]
    // The create started by the rollback's disposer publishes, its agent/created listener vetoes; the failed one settles first.
    const withInline = trace([
      failed, { k: 'mark', label: 'a1:create(s1)@setup:start', world: 0, tx: 't1', id: 's1' },
      invoke('inline', 't2', { op: 'create', session: 's1' }),
      ...lifecycle,
      outcome('a1', 't1', 'fail', 'setup of create(s1) threw'), outcome('inline', 't2', 'fail', 'listener:agent/created (env) threw'),
    ])
    expect(checkRun(program, withInline, OK).map((v) => v.key)).toEqual([])
    // Alone, a transaction whose setup threw and yet published is still caught.
    const alone = trace([failed, ...lifecycle, outcome('a1', 't1', 'fail', 'setup of create(s1) threw')])
    expect(checkRun(program, alone, OK).map((v) => v.key)).toEqual(expect.arrayContaining(['AGENT-SETUP-CONTRACT 36', 'AGENT-SETUP-CONTRACT 39']))
  })
})
