/**
 * Mutant A13 (persistence/resume, spec-derived from §1.4): a load crash-repairs the log of a live
 * session.
 *
 * Bug: the persistence backend balances an interrupted tail on every load (a `turn/end` closing a
 * turn the log left open, as after a crash), without refusing to touch a session that is live with
 * an open turn (upstream refuses: §1.4). A resume of an id whose agent is mid-turn then rewrites
 * that live session's stored log — the resume itself is rejected (`already exists`), but the disk
 * now says the turn ended, and the live session's later appends no longer line up with it and are
 * lost (violates P-REPLAY, §1.4, §3.1 R3, §9 43). This is a process mutant: the persistence belongs
 * to the process, not to the factory.
 */
import type { Context, SessionEvent, SessionId } from '../../core/contract.js'
import { installReferenceFactory } from '../../core/factory/reference-factory.js'
import { InMemoryPersistence } from '../../core/persistence.js'
import type { PersistedSession } from '../../core/persistence.js'
import { kitProcess } from '../../core/process.js'
import type { Adapter } from '../adapters/adapter.js'

/** The open turn a log ends inside, if any. */
function openTurn(events: readonly SessionEvent[]): number | undefined {
  let open: number | undefined
  for (const e of events) {
    if (e.type === 'turn/start') open = Number((e.data as { turn?: unknown }).turn)
    else if (e.type === 'turn/end') open = undefined
  }
  return open
}

class RepairingPersistence extends InMemoryPersistence {
  protected override loaded(_id: SessionId, record: PersistedSession): void {
    // BUG: no "is it live?" check before repairing the stored log.
    const turn = openTurn(record.events)
    if (turn === undefined) return
    const closer = { type: 'turn/end', seq: record.events.length, time: 0, data: { turn, reason: { kind: 'aborted', reason: { kind: 'interrupted' } } } }
    record.events.push(Object.freeze(closer) as SessionEvent)
  }
}

const adapter: Adapter = {
  name: 'mutant:a13-live-session-crash-repaired',
  version: '0.1.0',
  reproduces: 'A13: a load crash-repairs the stored log of a live session (a resume racing a live turn rewrites its log)',
  process: kitProcess((ctx: Context) => installReferenceFactory(ctx), {
    persistence: (ctx, disk, options) => new RepairingPersistence(ctx, disk, options),
  }),
}

export default adapter
