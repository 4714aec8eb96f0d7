/**
 * Checker false positives that long campaigns on the reference factory turned up, kept as the
 * failing run files they were: each program, replayed (guided) on the reference, must show no
 * violation; under the checkers of the time each showed the clause in its name.
 * - a resume whose id a concurrent create emptied on disk between its invocation and its load
 *   (§9 43 must compare with the disk as the load read it);
 * - a stub agent registered under an id whose lifecycle was between agent/disposed and
 *   session/disposed (its agent/created is not a second edge of that lifecycle, §9 74);
 * - a stub register of the id being created, from its session/created listener: the register fails
 *   (`already registered`) after the real agent/created was emitted, which is that lifecycle's edge
 *   (§9 36: `fuzz --seed 5339 --runs 1`);
 * - a cancel from a `session/event` observer of the splice that queues a message: the observer sees
 *   the inbox before that splice (§6.3), so the message is not pending for the cancel to drop (§9 149);
 * - a same-id create rolling back after its session was entered but never announced (§3.5 row L):
 *   that session is live in the store with no persisted record, and none is owed (§9 43, stored log);
 * - a plain cancel from inside a splice's observer cannot drop what that splice inserts (the live
 *   inbox lags the log there, §6.3; §9 149);
 * - a cancel from inside an append observer that threw (its clear reentered the append) aborted
 *   nothing, so it is not the first cause of the turn's end (§9 156);
 * - a stub register from the `session/disposed` listener of a rolled-back resume, whose stub is
 *   announced and removed again inside the register (a throwing `agent/created` listener fails it):
 *   both edges are the stub's, not the resume's (§9 96, 55, 95; a guided campaign, run seed 33410).
 * - a boundary held up by its own create's hanging setup never reaches the unload after it: only an
 *   unload the boundary started can have waited on it (§9 137; a 1,000,000-run campaign, run seed 3894);
 * - a cancel made while a published creation is being rolled back (a throwing scoped listener):
 *   the rollback aborted the turn as disposed first (§9 156; run seed 6402);
 * - a whenIdle() called from commit() on an idle agent resolved at once, and its caller saw it after
 *   a session-start listener's steer had the agent running (§9 27; run seed 19714).
 * - a cancel keeping the inbox, made from an `agent/inbox/inserted` listener before the turn that
 *   input opened: it returned before the turn opened (it clears nothing that could wake the agent),
 *   although its outcome is recorded after the `turn/start`, so a later teardown's cause is the
 *   turn's (§9 156; `fuzz --runs 3000 --seed 11`, run seed 1782);
 * - likewise a plain cancel from that listener whose clear discarded the input: the followup's wake
 *   opened the turn after the cancel returned (no wake was made inside it), so a later restart's
 *   cause is the turn's (§9 156; same campaign, run seed 2369);
 * - and a cancel whose clear discarded the input of a followup still publishing: that followup's wake
 *   ran after the cancel returned, and an `agent/status` listener's followup made then is no wake
 *   from inside the clear (§9 156; `fuzz --adapter conformance/mutants/m49-whenidle-no-follow.ts
 *   --seed 1`, run seed 739, where the reference baseline showed it too).
 * From the 1,000,000-run campaign at e8d1708 (seed 1000):
 * - a cancel from an inserted listener whose clear's discard listener steered: the driver that wake
 *   started was aborted before its turn and ended; the turn was opened by the latch replayed at
 *   that end, after the cancel returned (§9 156; run seed 3202);
 * - two overlapping restarts: the second joins the first (one final state per process), so no
 *   process's final state shows another's stub (§9 65; run seed 3495; a fix of the simulator);
 * - an announced stub left in a process that restarts goes with that process, not out of its
 *   registry: the restart's outcome shows the next process (§9 76; run seed 21365);
 * - a create whose commit throws next to a same-id create that publishes: the publication is the
 *   other one's (§9 40, 95; run seed 22707);
 * - two resumes of one id, the first publishing and a restart failing the second before its load
 *   ended: the publisher is the one that never settled (its process crashed), not the one that
 *   rejected while the lifecycle was live (§9 95; run seed 16347);
 * - a hanging model call aborted by a factory unload in the dispatch that then crashed the process:
 *   the dead process's model hears the abort no more (§9 139; run seed 53104; a fix of the simulator);
 * - a steer into maintenance of an agent whose publication a throwing `session/created` listener
 *   broke off: the rollback parks it, although the creation never settled (its process crashed
 *   later; §9 31, run seed 79496).
 * From the 1,000,000-run campaign at 7d88821 (seed 1000):
 * - a cancel from an `agent/created` listener on an idle agent with an empty inbox: it cleared
 *   nothing (so no listener ran inside it) and returned at once, although its outcome is recorded
 *   after the turn a later listener's steer opened; a followup that failed to reenter the append woke
 *   nothing (§9 156; run seed 17368);
 * - a create whose agent collided with an entered stub (§3.5 row L): its session, entered and never
 *   announced, stays in the store until its rollback's step 6, and a detach of the stub meanwhile
 *   leaves it there alone for a while (§9 65; run seed 80820).
 * From the 1,000,000-run campaign at 37cfb40 (seed 1000):
 * - a hook cancel whose clear's discard listener injected, and that inject's inserted listener
 *   followed up: the turn opened inside the cancel, which then aborted it first; a wake is inside a
 *   request when it settled before it, whatever listener made it (§9 156; run seed 20569);
 * - a whenIdle() of an idle agent called from an observer of another agent's append: it resolved,
 *   then that agent's driver went on and a turn-stopping listener woke the first agent before the
 *   whenIdle's outcome was recorded (§9 27; run seed 195394).
 * From the unguided 1,000,000-run campaign at c2dc0ea (seed 1000):
 * - a resume with a signal and a same-id create, neither settling (a listener crashed the process):
 *   the session-start's source (`startup`) says the create published, so the resume's signal,
 *   aborted from an `agent/created` listener, is not the publication's (§9 60; run seed 208660).
 * From `fuzz --time 60s --seed 7` at 32da675:
 * - a cancel made after a throwing `agent/created` listener broke the publication off: the rollback
 *   aborted the turn as disposed first, although the creation never rejected (a listener of its
 *   agent/disposed crashed the process; §9 156, run seed 17863).
 * And gaps of the reference itself:
 * - a teardown requested again from a listener of its own inbox clear ran a second pass that
 *   cleared, after agent/disposed, what the scope's disposers had injected (§9 111; the 1,000,000-run
 *   campaign at 579345c, run seed 308500);
 * - (a guided 100,000-run campaign, run seed 28098) a dispose from a `session/event` observer of
 *   `turn/end` while a followup waits in next-turn:
 *   the driver replaced the aborted activity controller and opened the next turn after dispose
 *   began (§9 107); it now stops when its signal was aborted during the `turn/end` append.
 * From a guided `fuzz --runs 120000 --seed 1000 --workers 2` at f2ab4c6:
 * - a stub register from the `session/created` listener of a resume whose agent is entered: the
 *   register fails (`already registered`), but a listener crashed the process before its outcome was
 *   recorded, so the `agent/created` after it (the resume's own) stayed set aside for the stub (§9 36;
 *   run seed 113690);
 * - and the limit of that fix, from `fuzz --runs 150000 --seed 2000 --workers 2` with it: a stub
 *   registered after a same-id creation rolled back (no agent/created), whose own `agent/created`
 *   listener crashed the process inside the register, is the stub's edge, not the ended lifecycle's
 *   (§9 55, 95, 96, 103 in 55 runs; run seed 26673).
 * From a guided `fuzz --runs 100000 --seed 6000 --strategy random --workers 2` at d8abc4f:
 * - a whenIdle() called while the agent ran, resolved when it went idle; an idle listener's boundary
 *   then followed up from its second operation, after the dispatch had returned, and the waiter's
 *   outcome was recorded after that restart (§9 27 in 35 runs; run seed 88538).
 * From a guided `fuzz --runs 100000 --seed 7000 --strategy random --workers 2` at 670ba95:
 * - a followup's append, observed while the agent was idle: one observer started a maintenance, the
 *   next cancelled with the `disposed` cause, so the wake decided after the append found a disposed
 *   abort and latched nothing (§9 31 in 61 runs; run seed 55640).
 * From a guided `fuzz --runs 100000 --seed 10000 --strategy random --workers 2` at 7c08fef:
 * - a create whose signal a scope-minting action aborted rejected at once while its provisional scope
 *   was still torn down in the background, holding the owner effect (§3.3), when a second create of
 *   that id by the same owner was disposed (§9 99 in 1 run; run seed 71863).
 * From a guided `fuzz --runs 100000 --seed 13000 --strategy random --workers 2` at 947dd56:
 * - a user cancel whose inbox clear started a maintenance (a discard listener) aborted that
 *   maintenance; the maintenance's abort observer followed up and opened a turn, which an owner
 *   unload then aborted as disposed first (§9 156 in 48 runs; run seed 28440).
 * The shapes the checkers once declined and now judge (`conformance/mutants/judged.ts`: each is the
 * program and schedule of a mutant's saved run, on which the reference must stay clean):
 * - a dispose aborts a turn parked in its model call, and an abort observer then cancels with the
 *   user cause: the disposal came first, the turn records it (§9 156; rows D53, D56);
 * - input sent from a session/created listener to a creation an agent/created listener then
 *   breaks off: the rollback, begun at that throw, cancels it before agent/disposed (§9 114; D20);
 * - quiet input parked while idle, a followup, and a keepInbox cancel from the followup's inserted
 *   listener: that cancel, made before the wake, found no activity to abort and parked nothing; the
 *   wake ran both (§9 19; D47);
 * - a resume of a session whose log holds pending input, with a session/created listener acting on
 *   another id: the agent runs only when woken, after its publication (§9 56; D7);
 * - a turn, then a maintenance: whenIdle() of the idle agent in between settles (§9 24; D44);
 * - quiet input parked on one agent while another is disposed: its inbox is not cleared (§9 163; D28);
 * - a child's turn reaches its stop check while its parent's dispose, requested earlier, is still on
 *   its way down: the turn completes (§9 157; D61);
 * - an agent whose only scoped effect has a `block` disposer, disposed: the scope unwinds before
 *   agent/disposed (§9 97; D14);
 * - quiet input then a followup on the second lifecycle of an id whose first was disposed: the
 *   followup runs; the first lifecycle's dispose is no teardown request of the second (§9 19; the
 *   lower bound of `teardownRequest`).
 * From `npm run soundness -- --runs 10000` at 2d12599 (the reference, random and portfolio):
 * - two resumes of one id hang in their loads and an owner unload aborts one: the other still hangs
 *   at its injected hang, which the first's abort did not close (§9 67 in 9 runs; run seed 3737).
 * And a gap of both conforming factories the judged aborted-turn rule showed (X-CANCEL 148 on the
 * from-scratch example in 2 of 10,000 portfolio runs, run seed 5005654; the reference the same): a
 * wake latched in an abort's convergence was lost when a listener of the exit's `idle` started a
 * maintenance; the maintenance now holds the latch and replays it (the new X-CANCEL 148 directed case).
 * From a guided `fuzz --runs 20000 --seed 11 --workers 1` with the programs' persistence
 * preparations, before the §9 50 checker left alone ids with an unsettled resume:
 * - a resume made from a tool body, whose setup hangs by the program's choice, still holds the
 *   preparation it was handed when the run ends: nothing is owed yet (§9 50 in 1 run; run seed 17435).
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { normalizeAdapter, REFERENCE_ADAPTER } from '../adapters/adapter.js'
import { readRunFile } from '../../sim/trace/run-file.js'
import { runProgram } from '../../sim/run.js'
import { guidedReplay } from '../../sim/strategies/index.js'
import { checkRun } from './index.js'

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures')
const install = normalizeAdapter(REFERENCE_ADAPTER, 'reference').installFactory

describe('reference runs the checkers once misread', () => {
  for (const name of readdirSync(DIR).filter((f) => f.startsWith('reference-')).sort()) {
    it(name, async () => {
      const file = readRunFile(join(DIR, name))
      const strategy = guidedReplay(file.decisions)
      strategy.beginRun()
      const result = await runProgram(file.program, strategy, { install })
      // The replay followed the recorded schedule, so the race is really there.
      expect(strategy.steps.filter((s) => s.followed).length).toBe(strategy.steps.length)
      expect(checkRun(file.program, result.trace, result.outcome)).toEqual([])
    })
  }
})
