/**
 * Directed programs: each aims at a clause group and runs under many schedules, with every
 * checker on. They are plain JSON (sim/program/program.ts), so a failure prints and replays as data.
 *
 * Longer than 500 lines because it is one table of data, a few lines per program, each with the
 * comment saying what race it sets up (sim/README.md lists the surfaces each one drives).
 * @module
 */
import type { Program } from '../../sim/program/program.js'

/** A directed program and the clause groups it aims at. */
export interface DirectedProgram {
  readonly name: string
  readonly groups: readonly string[]
  /** §9 clauses the program exists for (a contract demand on the suite, §11–§12): reported as checked by `program`. */
  readonly clauses?: readonly number[]
  readonly program: Program
  /** The program deliberately hangs something (a deadlock outcome is expected, not a failure). */
  readonly hangs?: boolean
}

const effects = [{ disposer: { do: 'slow' as const } }]

/** The directed programs of the suite (`demands.ts` names those the contract's §11–§12 require). */
export const DIRECTED_PROGRAMS: readonly DirectedProgram[] = [
  {
    name: 'same-id-race', groups: ['AGENT-ATOMIC-TEST', 'AGENT-SETUP-CONTRACT'],
    program: { v: 1, actors: [
      { id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 2, effects } }, { op: 'followup', session: 's1' }, { op: 'dispose', session: 's1' }] },
      { id: 'a2', ops: [{ op: 'create', session: 's1', setup: { steps: 2, effects } }, { op: 'dispose', session: 's1' }] },
      { id: 'a3', ops: [{ op: 'create', session: 's1', setup: { steps: 1 } }] },
    ] },
  },
  {
    name: 'owner-unload-during-setup', groups: ['AGENT-TEARDOWN-TEST', 'AGENT-PREPARE-PUBLISH'],
    program: { v: 1, actors: [
      { id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 3, effects } }, { op: 'followup', session: 's1' }] },
      { id: 'a2', ops: [{ op: 'unloadOwner', owner: 'a1' }, { op: 'create', session: 's1', setup: { steps: 1 } }, { op: 'dispose', session: 's1' }] },
    ] },
  },
  {
    name: 'factory-unload-pending-and-live', groups: ['AGENT-TEARDOWN-TEST'],
    program: { v: 1, actors: [
      { id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 1, effects } }, { op: 'followup', session: 's1' }] },
      { id: 'a2', ops: [{ op: 'create', session: 's2', setup: { steps: 3, effects } }] },
      { id: 'a3', ops: [{ op: 'unloadFactory' }, { op: 'dispose', session: 's1' }] },
    ] },
  },
  {
    name: 'reentrant-owner-unload-in-session-created', groups: ['AGENT-TEARDOWN-TEST', 'AGENT-PREPARE-PUBLISH'],
    program: {
      v: 1,
      actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 1, effects } }] }, { id: 'a2', ops: [{ op: 'create', session: 's2' }] }],
      env: { listeners: [{ event: 'session/created', session: 's1', action: { do: 'op', op: { op: 'unloadOwner', owner: 'a1' } } }] },
    },
  },
  {
    name: 'reentrant-owner-unload-in-agent-created', groups: ['AGENT-TEARDOWN-TEST', 'AGENT-PREPARE-PUBLISH'],
    program: {
      v: 1,
      actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 1, effects } }] }],
      env: { listeners: [{ event: 'agent/created', action: { do: 'op', op: { op: 'unloadOwner', owner: 'a1' } } }] },
    },
  },
  {
    name: 'reentrant-dispose-in-session-start', groups: ['AGENT-TEARDOWN-TEST', 'AGENT-PREPARE-PUBLISH'],
    program: {
      v: 1,
      actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 1, effects } }, { op: 'followup', session: 's1' }] }],
      env: { listeners: [{ event: 'agent/session-start', action: { do: 'op', op: { op: 'unloadOwner', owner: 'a1' } } }] },
    },
  },
  {
    name: 'throwing-lifecycle-listeners', groups: ['AGENT-REGISTRY-TEST', 'AGENT-TEARDOWN-TEST'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 1, effects } }, { op: 'create', session: 's1' }, { op: 'dispose', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'create', session: 's2', setup: { steps: 1 } }, { op: 'create', session: 's2' }, { op: 'followup', session: 's2' }, { op: 'dispose', session: 's2' }] },
      ],
      env: { listeners: [
        { event: 'session/created', session: 's1', action: { do: 'throw' } },
        { event: 'agent/created', session: 's2', action: { do: 'throw' } },
        { event: 'agent/created', action: { do: 'reject' }, times: 2 },
        { event: 'agent/disposed', action: { do: 'throw' }, times: 3 },
        { event: 'agent/disposed', action: { do: 'reject' }, times: 3 },
        { event: 'session/disposed', action: { do: 'throw' }, times: 3 },
        { event: 'agent/status', action: { do: 'throw' }, times: 4 },
        { event: 'agent/session-start', action: { do: 'throw' }, times: 2 },
      ] },
    },
  },
  {
    name: 'dispose-races-owner-and-factory-unload', groups: ['AGENT-TEARDOWN-TEST'], clauses: [98],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 1, effects } }, { op: 'followup', session: 's1' }, { op: 'create', session: 's2', setup: { steps: 1 } }] },
        { id: 'a2', ops: [{ op: 'dispose', session: 's1' }, { op: 'dispose', session: 's2' }] },
        { id: 'a3', ops: [{ op: 'unloadOwner', owner: 'a1' }] },
        { id: 'a4', ops: [{ op: 'unloadFactory' }] },
      ],
      env: { model: { s1: [{ reply: 'hang' }] } },
    },
  },
  {
    name: 'teardown-with-open-turn', groups: ['AGENT-TEARDOWN-TEST', 'X-CANCEL'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 1, effects } }, { op: 'followup', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'cancel', session: 's1', keepInbox: true }, { op: 'dispose', session: 's1' }] },
      ],
      env: { model: { s1: [{ reply: 'hang' }, { reply: 'text' }] }, listeners: [{ event: 'agent/status', session: 's1', action: { do: 'op', op: { op: 'followup', session: 's1' } }, times: 2 }] },
    },
  },
  {
    name: 'inbox-burst-across-turns', groups: ['AGENT-INBOX-TEST', 'AGENT-INBOX-COMMIT', 'X-INPUT', 'X-CANCEL'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'inject', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'steer', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }, { op: 'queue', session: 's1' }, { op: 'steer', session: 's1' }, { op: 'whenIdle', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'steer', session: 's1' }, { op: 'cancel', session: 's1', keepInbox: true }, { op: 'followup', session: 's1' }, { op: 'cancel', session: 's1' }, { op: 'inject', session: 's1' }, { op: 'followup', session: 's1' }] },
      ],
      env: {
        model: { s1: [{ reply: 'tool', op: { op: 'steer', session: 's1' } }, { reply: 'text' }, { reply: 'fail' }, { reply: 'tool' }] },
        listeners: [{ event: 'agent/pre-step', action: { do: 'slow' }, times: 3 }, { event: 'agent/turn-stopping', action: { do: 'op', op: { op: 'steer', session: 's1' } } }],
      },
    },
  },
  {
    name: 'maintenance-and-wakes', groups: ['AGENT-RUNTIME-SCOPE'],
    program: { v: 1, actors: [
      { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'runMaintenance', session: 's1', steps: 2 }, { op: 'whenIdle', session: 's1' }, { op: 'runMaintenance', session: 's1', steps: 1 }] },
      { id: 'a2', ops: [{ op: 'followup', session: 's1' }, { op: 'cancel', session: 's1' }, { op: 'steer', session: 's1' }, { op: 'whenIdle', session: 's1' }] },
    ] },
  },
  {
    name: 'restart-and-resume', groups: ['AGENT-CREATE-RESUME', 'AGENT-INBOX-REPLAY'],
    program: { v: 1, actors: [
      { id: 'a1', ops: [
        { op: 'create', session: 's1', setup: { steps: 1 } }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }, { op: 'inject', session: 's1' },
        { op: 'queue', session: 's1' }, { op: 'restart' }, { op: 'resume', session: 's1', setup: { steps: 1 } }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }, { op: 'dispose', session: 's1' },
      ] },
      { id: 'a2', ops: [{ op: 'create', session: 's2' }, { op: 'followup', session: 's2' }, { op: 'resume', session: 's2' }] },
    ] },
  },
  {
    name: 'resume-with-load-faults', groups: ['AGENT-CREATE-RESUME', 'AGENT-TEARDOWN-TEST'],
    hangs: true,
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'resume', session: 'p1', signal: 'g1' }, { op: 'resume', session: 'p2' }] },
        { id: 'a2', ops: [{ op: 'resume', session: 'p3', owner: 'o1' }, { op: 'resume', session: 'p1' }, { op: 'dispose', session: 'p1' }] },
        { id: 'a3', ops: [{ op: 'abortSignal', signal: 'g1' }, { op: 'unloadOwner', owner: 'o1' }] },
      ],
      env: {
        loads: { p1: { load: 'hang' }, p2: { load: 'fail' }, p3: { load: 'slow', steps: 2 } },
        persisted: [
          { id: 'p1', events: [{ type: 'turn/start', data: { turn: 1 } }, { type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } }] },
          { id: 'p2', events: [] },
          { id: 'p3', events: [{ type: 'agent/inbox/spliced', data: { target: 'next-step', start: 0, inserted: [{ id: 'x1', role: 'user', content: [{ type: 'text', text: 'persisted' }], source: { kind: 'user' } }] } }] },
        ],
      },
    },
  },
  {
    name: 'resume-invalid-splices', groups: ['AGENT-INBOX-REPLAY'],
    program: {
      v: 1,
      actors: [{ id: 'a1', ops: [{ op: 'resume', session: 'bad' }, { op: 'create', session: 'bad' }, { op: 'dispose', session: 'bad' }] }],
      env: { persisted: [{ id: 'bad', events: [{ type: 'agent/inbox/spliced', data: { target: 'next-turn', start: 1, inserted: [] } }] }] },
    },
  },
  {
    name: 'parent-and-child', groups: ['AGENT-TEARDOWN-TEST', 'AGENT-FACTORY-SEAM'],
    program: { v: 1, actors: [
      { id: 'a1', ops: [{ op: 'create', session: 'p', setup: { steps: 1, effects } }, { op: 'create', session: 'c', parent: 'p', setup: { steps: 1, effects } }, { op: 'followup', session: 'c' }, { op: 'dispose', session: 'p' }] },
      { id: 'a2', ops: [{ op: 'create', session: 'c2', parent: 'p' }, { op: 'unloadOwner', owner: 'a1' }] },
    ] },
  },
  {
    name: 'shutdown-with-wake', groups: ['AGENT-INITIATOR-DRAIN', 'AGENT-TEARDOWN-TEST'], clauses: [141],
    program: { v: 1, actors: [
      { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }] },
      { id: 'a2', ops: [{ op: 'create', session: 's2' }, { op: 'steer', session: 's2' }, { op: 'shutdown' }] },
    ] },
  },
  {
    // §12 Q4 (Suite MUST): a teardown requested from inside a session/event observer, with work
    // pending in the inbox, still resolves and completes every step; nothing is appended after it.
    name: 'teardown-from-session-event-observer', groups: ['AGENT-TEARDOWN-TEST'], clauses: [114],
    program: { v: 1,
      env: { listeners: [{ event: 'session/event', session: 's1', eventType: 'agent/inbox/spliced', action: { do: 'op', op: { op: 'dispose', session: 's1' } } }] },
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'inject', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'create', session: 's2' }, { op: 'followup', session: 's2' }] },
      ] },
  },
  {
    // §9 120 under many schedules: ids already pending are re-sent (followup and inject) while the
    // agent is idle, running, and in the middle of maintenance; every re-send must be rejected.
    name: 'resend-pending-ids', groups: ['AGENT-INBOX-TEST'], clauses: [120],
    program: { v: 1, actors: [
      { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'inject', session: 's1' }, { op: 'resend', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'resend', session: 's1', via: 'inject' }, { op: 'steer', session: 's1' }, { op: 'resend', session: 's1' }] },
      { id: 'a2', ops: [{ op: 'followup', session: 's1' }, { op: 'resend', session: 's1', via: 'inject' }, { op: 'runMaintenance', session: 's1', steps: 2 }, { op: 'followup', session: 's1' }, { op: 'resend', session: 's1' }] },
    ] },
  },
  {
    // §9 5–6 after every event: parents and children created, disposed and recreated (a child id
    // reused by a root, a child of a child) while the ownership queries are checked after each event.
    name: 'ownership-under-churn', groups: ['AGENT-FACTORY-SEAM'], clauses: [5, 6],
    program: { v: 1, env: { ownership: true }, actors: [
      { id: 'a1', ops: [{ op: 'create', session: 'p' }, { op: 'create', session: 'c', parent: 'p' }, { op: 'create', session: 'g', parent: 'c' }, { op: 'dispose', session: 'c' }, { op: 'create', session: 'c' }, { op: 'dispose', session: 'p' }] },
      { id: 'a2', ops: [{ op: 'create', session: 'q' }, { op: 'create', session: 'd', parent: 'q' }, { op: 'unloadOwner', owner: 'a2' }, { op: 'create', session: 'd', parent: 'p' }] },
    ] },
  },
  {
    // §9 45–46 with headers on the persisted disk: one session with every header field, one without
    // cwd; each resumed (with a racing create of the same id), driven, restarted and resumed again.
    name: 'resume-persisted-headers', groups: ['AGENT-CREATE-RESUME'], clauses: [45, 46],
    program: { v: 1,
      env: { persisted: [
        { id: 'h1', events: [], header: { cwd: '/srv/project', parentSession: 'p0', seedLength: 0, origin: 'subagent', delegationDepth: 2, agentPreset: 'reviewer' } },
        { id: 'h2', events: [], header: { parentSession: 'p1' } },
      ] },
      actors: [
        { id: 'a1', ops: [{ op: 'resume', session: 'h1' }, { op: 'followup', session: 'h1' }, { op: 'whenIdle', session: 'h1' }, { op: 'restart' }, { op: 'resume', session: 'h1' }, { op: 'resume', session: 'h2' }] },
        { id: 'a2', ops: [{ op: 'resume', session: 'h2' }, { op: 'create', session: 'h1' }, { op: 'followup', session: 'h2' }] },
      ] },
  },
  {
    // §8, §9 130–138 in programs: work done and unloads awaited from inside initiator boundaries —
    // a child created and driven inside its parent's boundary, an owner unloaded, and the process's
    // own shutdown awaited inside a boundary while another boundary waits on a turn.
    name: 'unloads-inside-boundaries', groups: ['AGENT-INITIATOR-API', 'AGENT-INITIATOR-DRAIN'], clauses: [130, 137],
    program: { v: 1, actors: [
      { id: 'a1', ops: [{ op: 'create', session: 'p' }, { op: 'boundary', session: 'p', ops: [{ op: 'create', session: 'c', parent: 'p' }, { op: 'followup', session: 'c' }, { op: 'whenIdle', session: 'c' }] }, { op: 'boundary', session: 'p', ops: [{ op: 'shutdown' }] }] },
      { id: 'a2', ops: [{ op: 'create', session: 'q', owner: 'o2' }, { op: 'boundary', session: 'q', ops: [{ op: 'followup', session: 'q' }, { op: 'unloadOwner', owner: 'o2' }, { op: 'whenIdle', session: 'q' }] }] },
    ] },
  },
  // Reentrant shapes for the checks of the settled state: operations from inside dispatches while
  // work is pending (listener targeting: nth, payload filters, abort observers).
  {
    name: 'wake-from-inside-inbox-observers', groups: ['AGENT-RUNTIME-SCOPE', 'X-INPUT'],
    program: {
      v: 1,
      actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'inject', session: 's1' }, { op: 'followup', session: 's1' }] }],
      env: { listeners: [
        { event: 'agent/inbox/inserted', session: 's1', action: { do: 'op', op: { op: 'runMaintenance', session: 's1' } } },
        { event: 'agent/status', session: 's1', where: { status: 'idle' }, action: { do: 'op', op: { op: 'steer', session: 's1' } } },
        { event: 'agent/inbox/claimed', session: 's1', nth: 2, action: { do: 'op', op: { op: 'followup', session: 's1' } } },
      ] },
    },
  },
  {
    name: 'cancel-from-abort-observers', groups: ['X-CANCEL'],
    program: {
      v: 1,
      actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'followup', session: 's1' }] }],
      env: {
        model: { s1: [{ reply: 'tool', op: { op: 'cancel', session: 's1' } }, { reply: 'hang' }] },
        listeners: [
          { event: 'agent/pre-step', session: 's1', action: { do: 'slow' }, times: 2, onAbort: { do: 'op', op: { op: 'cancel', session: 's1', cause: 'hook', keepInbox: true } } },
          { event: 'agent/turn-stopping', session: 's1', action: { do: 'slow' }, onAbort: { do: 'op', op: { op: 'steer', session: 's1' } } },
        ],
      },
    },
  },
  {
    name: 'cancel-racing-the-end-of-a-turn', groups: ['X-CANCEL'],
    program: { v: 1, actors: [
      { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }, { op: 'followup', session: 's1' }] },
      // (a2 pauses between its cancels; it once waited on whenIdle of an id nothing creates, which
      // program validation now refuses)
      { id: 'a2', ops: [
        { op: 'pause' }, { op: 'pause' }, { op: 'pause' },
        { op: 'cancel', session: 's1', keepInbox: true }, { op: 'pause' }, { op: 'cancel', session: 's1', keepInbox: true },
        { op: 'pause' }, { op: 'cancel', session: 's1', cause: 'hook' }, { op: 'pause' }, { op: 'cancel', session: 's1', keepInbox: true },
      ] },
    ] },
  },
  {
    name: 'wake-racing-shutdown', groups: ['AGENT-RUNTIME-SCOPE', 'AGENT-INITIATOR-DRAIN'],
    program: {
      v: 1,
      actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'create', session: 's2' }, { op: 'shutdown' }] }],
      env: { effects: [{ on: 'root', disposer: { do: 'op', op: { op: 'followup', session: 's1' } } }, { on: 'owner:a1', disposer: { do: 'op', op: { op: 'steer', session: 's2' } } }] },
    },
  },
  {
    name: 'resume-racing-a-live-turn', groups: ['AGENT-CREATE-RESUME'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'resume', session: 's1' }, { op: 'cancel', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'resume', session: 's1' }, { op: 'followup', session: 's1' }] },
      ],
      env: { model: { s1: [{ reply: 'hang' }, { reply: 'text' }] } },
    },
  },
  {
    name: 'teardown-from-append-observers-with-work-pending', groups: ['AGENT-TEARDOWN-TEST'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 1, effects } }, { op: 'inject', session: 's1' }, { op: 'followup', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'create', session: 's2', setup: { steps: 2, rejectAt: 2, effects } }, { op: 'create', session: 's2' }, { op: 'inject', session: 's2' }, { op: 'inject', session: 's2' }] },
      ],
      env: { listeners: [
        { event: 'session/event', session: 's1', eventType: 'turn/end', action: { do: 'op', op: { op: 'dispose', session: 's1' } } },
        { event: 'session/event', session: 's2', eventType: 'agent/inbox/spliced', where: { pending: true }, action: { do: 'op', op: { op: 'dispose', session: 's2' } } },
      ] },
    },
  },
  {
    // A crash in the middle of a turn (the model call never returns) with a steer and an inject
    // pending, while another actor creates, sends and resumes: the new process must resume what the
    // dead one appended durably, the open turn and the pending splices included (§3.4, §6.5, §9 43–47,
    // 116–119), and nothing of the dead process may act on the new one.
    name: 'crash-mid-turn-and-resume', groups: ['AGENT-CREATE-RESUME', 'AGENT-INBOX-REPLAY'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [
          { op: 'create', session: 's1', setup: { steps: 1 } }, { op: 'followup', session: 's1' }, { op: 'steer', session: 's1' }, { op: 'inject', session: 's1' },
          { op: 'crash' }, { op: 'resume', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }, { op: 'dispose', session: 's1' },
        ] },
        { id: 'a2', ops: [{ op: 'create', session: 's2', setup: { steps: 1, effects } }, { op: 'followup', session: 's2' }, { op: 'inject', session: 's2' }, { op: 'resume', session: 's2' }, { op: 'followup', session: 's2' }] },
      ],
      env: { model: { s1: [{ reply: 'hang' }] }, listeners: [{ event: 'session/event', session: 's2', eventType: 'turn/end', action: { do: 'op', op: { op: 'steer', session: 's1' } } }] },
    },
  },
  {
    // The registry split one step at a time on stubs, from actors and from listeners (§4, §9 71–79):
    // enter emits nothing and refuses a live id, a real create collides with an entered stub, announce
    // emits agent/created once and refuses a repeat and a detached object, detach is single-shot,
    // silent for a never-announced entry, never removes a replacement, and is deferred when a created
    // listener calls it.
    name: 'registry-split-steps', groups: ['AGENT-REGISTRY-LIFECYCLE'], clauses: [71, 73, 74, 75, 76, 78, 79],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [
          { op: 'enter', session: 'x1' }, { op: 'announce', session: 'x1' }, { op: 'announce', session: 'x1' }, { op: 'enter', session: 'x1' },
          { op: 'detach', session: 'x1' }, { op: 'announce', session: 'x1' }, { op: 'enter', session: 'x1' }, { op: 'detach', session: 'x1', stale: true },
          { op: 'detach', session: 'x1' }, { op: 'detach', session: 'x1' },
        ] },
        { id: 'a2', ops: [
          { op: 'enter', session: 's1' }, { op: 'create', session: 's1' }, { op: 'detach', session: 's1' }, { op: 'create', session: 's1', setup: { steps: 1 } },
          { op: 'followup', session: 's1' }, { op: 'dispose', session: 's1' },
        ] },
        { id: 'a3', ops: [{ op: 'enter', session: 'x3' }, { op: 'announce', session: 'x3' }, { op: 'announce', session: 'x3' }, { op: 'enter', session: 'x3' }, { op: 'announce', session: 'x3' }] },
      ],
      env: { listeners: [
        { event: 'agent/created', session: 'x3', action: { do: 'op', op: { op: 'detach', session: 'x3' } }, times: 2 },
        { event: 'agent/created', session: 's1', action: { do: 'op', op: { op: 'enter', session: 'y1' } } },
        { event: 'agent/disposed', session: 's1', action: { do: 'op', op: { op: 'announce', session: 'y1' } } },
        { event: 'agent/disposed', session: 'y1', action: { do: 'op', op: { op: 'enter', session: 'y1' } } },
      ] },
    },
  },
  {
    // A teardown requested again from a listener of its own inbox clear (the first request's
    // synchronous part): it must join the first, one pass (§5.1), not run a second one that clears
    // what the scope's disposers left after agent/disposed (§9 111; a 1,000,000-run reference
    // campaign, run seed 308500). The disposers start maintenance and inject during step 5.
    name: 'teardown-requested-again-from-its-own-inbox-clear', groups: ['AGENT-TEARDOWN-TEST'], clauses: [111],
    program: {
      v: 1,
      actors: [{ id: 'a1', ops: [
        { op: 'create', session: 's1', setup: { steps: 0, effects: [
          { disposer: { do: 'op', op: { op: 'runMaintenance', session: 's1' } } },
          { disposer: { do: 'op', op: { op: 'inject', session: 's1' } } },
        ] } },
        { op: 'queue', session: 's1' }, { op: 'dispose', session: 's1' },
      ] }],
      env: { listeners: [{ event: 'agent/inbox/discarded', action: { do: 'op', op: { op: 'dispose', session: 's1' } } }] },
    },
  },
  {
    // Sends after dispose() resolved, through handles the actors kept (§12 Q3): what the disposed
    // agent does with them is unspecified (refused, ignored, or accepted and parked), so no checker
    // judges what follows them; everything before them is judged as ever (§9 111: an idle listener's
    // re-send during the teardown produces nothing after it resolved). a1 also re-creates the id, so
    // its later handle sends reach its second agent while a2's old handle is still around.
    name: 'sends-after-disposal-through-kept-handles', groups: ['AGENT-TEARDOWN-TEST'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [
          { op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'dispose', session: 's1' },
          { op: 'followup', session: 's1', handle: true }, { op: 'steer', session: 's1', handle: true },
          { op: 'create', session: 's1' }, { op: 'inject', session: 's1', handle: true }, { op: 'dispose', session: 's1' },
          { op: 'queue', session: 's1', handle: true }, { op: 'followup', session: 's1', handle: true },
        ] },
        { id: 'a2', ops: [
          { op: 'create', session: 's2' }, { op: 'followup', session: 's2' }, { op: 'dispose', session: 's2' },
          { op: 'followup', session: 's2', handle: true }, { op: 'inject', session: 's2', handle: true },
        ] },
      ],
      env: { listeners: [{ event: 'agent/status', session: 's1', where: { status: 'idle' }, action: { do: 'op', op: { op: 'followup', session: 's1' } }, times: 2 }] },
    },
  },
  {
    // A persistence preparation that arrives after its caller gave up (§1.4, §3.1 R3, §9 50): a1's
    // resume waits on its preparation's hand-over (gate k1) while a2 unloads a1's owner and resumes
    // the same id, and a3 opens the gate somewhere in between. Every preparation that reached the
    // factory must be released (the late one at once, unpublished); the marks say when. Needs the
    // capability preparations.
    name: 'late-preparation-after-owner-unload', groups: ['AGENT-CREATE-RESUME', 'AGENT-TEARDOWN-TEST'], clauses: [50],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'resume', session: 's1', owner: 'o1' }, { op: 'followup', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'unloadOwner', owner: 'o1' }, { op: 'resume', session: 's1' }, { op: 'dispose', session: 's1' }] },
        { id: 'a3', ops: [{ op: 'pause' }, { op: 'openGate', gate: 'k1' }] },
      ],
      env: {
        persisted: [{ id: 's1', events: [{ type: 'turn/start', data: { turn: 1 } }, { type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } }] }],
        preparations: { s1: { gate: 'k1' } },
      },
    },
  },
  {
    // Loads that finish or fail at a point the program chooses (§1.4, §3.3): s1's load waits on k1
    // while a3 unloads its owner (it must reject promptly, §9 101) or lets it through; s2's load
    // fails when k2 opens, racing a factory unload (§9 102) and a create of the same id.
    name: 'loads-finish-or-fail-at-a-chosen-point', groups: ['AGENT-CREATE-RESUME', 'AGENT-TEARDOWN-TEST', 'AGENT-ATOMIC-TEST'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'resume', session: 's1', owner: 'o1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'resume', session: 's2' }, { op: 'create', session: 's2' }, { op: 'dispose', session: 's2' }] },
        { id: 'a3', ops: [{ op: 'openGate', gate: 'k2' }, { op: 'unloadOwner', owner: 'o1' }, { op: 'openGate', gate: 'k1' }] },
        { id: 'a4', ops: [{ op: 'pause' }, { op: 'unloadFactory' }] },
      ],
      env: {
        persisted: [
          { id: 's1', events: [{ type: 'turn/start', data: { turn: 1 } }, { type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } }] },
          { id: 's2', events: [] },
        ],
        loads: { s1: { load: 'ok', gate: 'k1' }, s2: { load: 'fail', gate: 'k2' } },
      },
    },
  },
  {
    // sessions.flush (§1.3, §9 87) racing a teardown: a flush listener of s1 waits on gate k1 and
    // another throws on the first flush, so that flush rejects, but only once k1 opened (every
    // listener settles first); a2 opens the gate at some point and disposes s1 later (no teardown
    // step awaits a flush, §5.1), and a third listener disposes from inside the third flush's dispatch.
    name: 'flush-racing-teardown', groups: ['AGENT-REGISTRY-TEST', 'AGENT-TEARDOWN-TEST'], clauses: [87],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'flush', session: 's1' }, { op: 'flush', session: 's1' }, { op: 'flush', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'pause' }, { op: 'pause' }, { op: 'openGate', gate: 'k1' }, { op: 'pause' }, { op: 'dispose', session: 's1' }] },
      ],
      env: { listeners: [
        { event: 'session/flush', session: 's1', action: { do: 'wait', gate: 'k1' }, times: 3 },
        { event: 'session/flush', session: 's1', action: { do: 'throw' } },
        { event: 'session/flush', session: 's1', action: { do: 'op', op: { op: 'dispose', session: 's1' } }, nth: 3 },
      ] },
    },
  },
  {
    // A slow scope cleanup that ends at a point the program chooses (§9 100): a1's agent has an
    // agent-scoped disposer waiting on gate k1, so its teardown holds both registries until a2 opens
    // the gate; a same-id create meanwhile loses (already exists), one after it wins.
    name: 'scope-cleanup-ends-at-a-chosen-point', groups: ['AGENT-TEARDOWN-TEST', 'AGENT-ATOMIC-TEST'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [
          { op: 'create', session: 's1', setup: { steps: 0, effects: [{ disposer: { do: 'wait', gate: 'k1' } }] } }, { op: 'followup', session: 's1' }, { op: 'dispose', session: 's1' },
          { op: 'create', session: 's1' }, { op: 'dispose', session: 's1' },
        ] },
        { id: 'a2', ops: [{ op: 'create', session: 's1' }, { op: 'pause' }, { op: 'openGate', gate: 'k1' }] },
      ],
    },
  },
  {
    // A process with no session persistence (§1.4, §3.1 R1): every resume rejects with the
    // not-configured error and leaves nothing behind, while creations of the same ids go on. Needs
    // the capability noPersistence.
    name: 'resume-without-persistence', groups: ['AGENT-CREATE-RESUME', 'AGENT-ATOMIC-TEST'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'resume', session: 's1' }, { op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'restart' }, { op: 'resume', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'create', session: 's2' }, { op: 'resume', session: 's2' }, { op: 'dispose', session: 's2' }] },
      ],
      env: { persistence: false, persisted: [{ id: 's1', events: [] }] },
    },
  },
  {
    // Scope minting (§3.3 row 2, §9 59, 104; the process's scopeCreated hook): the first agent scope
    // the process mints has its owner unloaded and the second its creation signal aborted from
    // inside the minting, while another creation of the same owner goes on. Needs the capability
    // scopeMinting.
    name: 'unload-and-abort-during-scope-minting', groups: ['AGENT-TEARDOWN-TEST', 'AGENT-ATOMIC-TEST', 'AGENT-PREPARE-PUBLISH'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'create', session: 's1', owner: 'o1', setup: { steps: 1, effects } }, { op: 'followup', session: 's1' }] },
        { id: 'a2', ops: [{ op: 'create', session: 's2', signal: 'g1' }, { op: 'create', session: 's3', owner: 'o1' }, { op: 'dispose', session: 's3' }] },
      ],
      env: { minting: [{ action: { do: 'op', op: { op: 'unloadOwner', owner: 'o1' } } }, { action: { do: 'op', op: { op: 'abortSignal', signal: 'g1' } }, times: 2 }] },
    },
  },
  {
    // The turn's own hooks (§10.1, §1.9): the agent/pre-step waterfall vetoes the third step it sees
    // (a blocked turn), and the serial agent/turn-stopping dispatch holds each turn open until gate
    // k1 opens, while a2 cancels with the inbox kept and steers; a stop check after a cancel must
    // not read completed (§9 157).
    name: 'turn-hooks-held-at-a-chosen-point', groups: ['X-CANCEL', 'AGENT-RUNTIME-SCOPE', 'X-INPUT'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [
          { op: 'create', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' },
          { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' },
        ] },
        { id: 'a2', ops: [{ op: 'pause' }, { op: 'cancel', session: 's1', keepInbox: true }, { op: 'openGate', gate: 'k1' }, { op: 'steer', session: 's1' }] },
      ],
      env: { listeners: [
        { event: 'agent/pre-step', session: 's1', action: { do: 'block' }, nth: 3 },
        { event: 'agent/turn-stopping', session: 's1', action: { do: 'wait', gate: 'k1' }, times: 3 },
      ] },
    },
  },
  {
    // A creation whose construction throws (§3.5 row D: the persisted inbox replay is invalid,
    // §9 116) rejects at once while its provisional scope quiesces in the background, and every
    // owner still awaits that teardown (§3.3, §5.2): the owner's unload and the factory's unload
    // must settle (§9 98, 103). A teardown that waited for a construction it never marked settled
    // would hang them (core/factory/reference-factory.ts:173 without settleConstruction()).
    name: 'construction-fails-then-owners-unload', groups: ['AGENT-TEARDOWN-TEST', 'AGENT-INBOX-REPLAY'],
    program: {
      v: 1,
      actors: [
        { id: 'a1', ops: [{ op: 'resume', session: 'bad', owner: 'o1' }, { op: 'unloadOwner', owner: 'o1' }, { op: 'create', session: 'bad' }, { op: 'dispose', session: 'bad' }] },
        { id: 'a2', ops: [{ op: 'resume', session: 'bad' }, { op: 'pause' }, { op: 'unloadFactory' }] },
      ],
      env: { persisted: [{ id: 'bad', events: [{ type: 'agent/inbox/spliced', data: { target: 'next-turn', start: 1, inserted: [] } }] }] },
    },
  },
  {
    // A turn aborted at its first pre-step (a keepInbox cancel from a pre-step listener) with a
    // followup from its abort observer latches (§9 155); a listener of the exit's `idle` then starts
    // a new driver, whose turn fails. That failed turn ends the driver and the work left parks until
    // the next wake (§7.4, §9 163): the latch belonged to the activity that converged, not to the new
    // driver. A runtime that hands it on replays it at the failed driver's exit
    // (core/agent.ts:203 with `phase.kind === 'maintenance'` → `true`, mutant j09).
    name: 'latch-not-kept-by-a-driver-whose-turn-fails', groups: ['X-INPUT', 'X-CANCEL'],
    program: {
      v: 1,
      actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }] }],
      env: {
        listeners: [
          { event: 'agent/pre-step', session: 's1', times: 1, action: { do: 'op', op: { op: 'queue', session: 's1' } } },
          { event: 'agent/pre-step', session: 's1', times: 1, action: { do: 'op', op: { op: 'cancel', session: 's1', keepInbox: true } }, onAbort: { do: 'op', op: { op: 'followup', session: 's1' } } },
          { event: 'agent/status', session: 's1', where: { status: 'idle' }, action: { do: 'op', op: { op: 'followup', session: 's1' } } },
        ],
        model: { s1: [{ reply: 'fail' }] },
      },
    },
  },
]
